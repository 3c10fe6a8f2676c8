import { describe, expect, it } from "vitest";
import { scanFrontmatter } from "../../../shared/ce/frontmatter-scan.js";
import { parseYamlMapping } from "../../../shared/ce/yaml-fallback.js";
import { indexFlatFrontmatter } from "../../../shared/discover/index-flat.js";
import { candidateFrontmatter } from "../../../shared/discover/rank.js";

// Discovery indexes a flat block directly (index-flat.ts); everything else reads it through the
// record (scanFrontmatter, then candidateFrontmatter). These tests hold the two to one answer
// over lines built to hit every branch of the grammar, and hold the flat reading to YAML's.

const KEYS = ["title", "summary", "created_at", "cwd", "keywords", "artifact_contract", "branch", "worktree_path", "repo_root_sha", "x-tool", "__proto__", "constructor", "Title", "_private", "a-b", "9lives", "bad key", "ключ", ""];
const LITERALS = [
  '"plain"',
  '""',
  '"with \\"escaped\\" quotes"',
  '"tab\\tand\\u00e9"',
  '"Ünïcödé 日本語 🚀"',
  '"raw\ttab inside"',
  '"colon: inside"',
  '"# hash"',
  ' "padded" ',
  '"trailing space" ',
  "42",
  "2.0",
  "-1e3",
  "true",
  "null",
  '["a", "b"]',
  '[ "a" ,"b" ]',
  '["a", 3, null]',
  "[]",
  '{"k": "v"}',
  "plain words",
  "'single'",
  '"unterminated',
  '"a" "b"',
  "",
  " ",
  "[",
  "0x10",
  '"\u2028line separator"',
];
const SEPARATORS = [": ", ":\t", ":", ":  ", " : "];
const ENDINGS = ["\n", "\r\n", "\r\r\n", ""];
// No `---` line: inside a document it would end the frontmatter.
const EXTRA_LINES = ["", "# a comment", "   ", "\r", "#", "  # indented comment", "- item", "----"];

/** A small deterministic generator: the same corpus on every run, so a failure can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
}

// Most lines well formed, so that many whole blocks are flat; the rest from every odd corner.
const GOOD_KEYS = KEYS.slice(0, 11);
const GOOD_LITERALS = LITERALS.slice(0, 20);

function corpus(count: number): string[] {
  const pick = generator(20261130);
  const blocks: string[] = [];
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    const lineCount = 1 + pick([0, 1, 2, 3, 4, 5]);
    const odd = pick([0, 1, 2]) === 0;
    for (let l = 0; l < lineCount; l++) {
      const rare = odd && pick([0, 1, 2, 3]) === 0;
      const line = pick([0, 0, 0, 0, 0, 0, 1]) === 1 ? pick(EXTRA_LINES) : `${pick(rare ? KEYS : GOOD_KEYS)}${rare ? pick(SEPARATORS) : ": "}${pick(rare ? LITERALS : GOOD_LITERALS)}`;
      lines.push(line + (rare ? pick(l === lineCount - 1 ? ENDINGS : ENDINGS.slice(0, 3)) : pick(["\n", "\n", "\r\n"])));
    }
    blocks.push(lines.join(""));
  }
  return blocks;
}

/** A block as it sits between the delimiters: ending in a line break. */
function lines(block: string): string {
  return block.endsWith("\n") || block === "" ? block : `${block}\n`;
}

/** What discovery indexed before index-flat.ts: the record, then the ranking fields picked from it. */
function throughRecord(block: string) {
  const scan = scanFrontmatter(`---\n${lines(block)}---\n`);
  if (scan.kind === "indexed") return candidateFrontmatter(scan.data);
  return scan.kind === "needs_yaml" ? "not flat" : scan.code;
}

describe("indexFlatFrontmatter gives what the record gives", () => {
  const blocks = corpus(4000).map(lines);

  it("over 4,000 generated blocks: the same index, or not flat for both", () => {
    let flat = 0;
    for (const block of blocks) {
      const direct = indexFlatFrontmatter(block);
      const expected = throughRecord(block);
      expect({ block: JSON.stringify(block), index: direct ?? "not flat" }).toEqual({ block: JSON.stringify(block), index: expected });
      if (direct !== undefined) flat++;
    }
    // Both kinds are well represented, or the comparison proves little.
    expect(flat).toBeGreaterThan(400);
    expect(blocks.length - flat).toBeGreaterThan(400);
  });

  it("whenever a block reads as flat, YAML reads the same mapping", () => {
    let compared = 0;
    for (const block of blocks) {
      const scan = scanFrontmatter(`---\n${block}---\n`);
      if (scan.kind !== "indexed") continue;
      const yaml = parseYamlMapping(block);
      const expected = yaml.ok ? yaml.value : "YAML refused it";
      expect({ block: JSON.stringify(block), value: scan.data }).toEqual({ block: JSON.stringify(block), value: expected });
      compared++;
    }
    expect(compared).toBeGreaterThan(400);
  });

  it.each([
    ['title: "Auth"\nkeywords: ["a", 3]\ncwd: 7\n', { title: "Auth", keywords: ["a"] }],
    ['title: "a"\ntitle: "b"\n', undefined],
    ['x: 1\nx: 2\n', undefined],
    ['__proto__: "p"\ntitle: "t"\n', { title: "t" }],
    ['title: "crlf"\r\nsummary: "s"\r\n', { title: "crlf", summary: "s" }],
    // A lone CR is a line break to YAML: not flat, and YAML decides.
    ['title: "two crs"\r\r\n', undefined],
    ['\r\ntitle: "blank CRLF line first"\n', { title: "blank CRLF line first" }],
    ['title:"no gap"\n', undefined],
    ['title: \n', undefined],
    ["# comment\n\n   \ntitle: \"t\"\n", { title: "t" }],
    ['  title: "indented"\n', undefined],
    ['title: "esc\\u0041ped"\n', { title: "escAped" }],
    ['artifact_contract: nope\n', undefined],
    ['artifact_contract: 7\ntitle: "t"\n', { title: "t" }],
  ])("%j", (block, expected) => {
    expect(indexFlatFrontmatter(block)).toEqual(expected);
    expect(throughRecord(block)).toEqual(expected ?? "not flat");
  });
});
