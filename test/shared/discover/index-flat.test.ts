import { describe, expect, it } from "vitest";
import { CE_CONTRACT, type CeFields } from "../../../shared/ce/contract.js";
import { locateFrontmatter, scanFrontmatter } from "../../../shared/ce/frontmatter-scan.js";
import { serializeCeFrontmatter } from "../../../shared/ce/serialize.js";
import { parseYamlMapping } from "../../../shared/ce/yaml-fallback.js";
import { indexFlatFrontmatter, indexWrittenShape, indexWrittenText, writtenTextIndexer } from "../../../shared/discover/index-flat.js";
import { type CandidateMeta, candidateFrontmatter, createRanker } from "../../../shared/discover/rank.js";

// Discovery indexes a flat block directly (index-flat.ts); everything else reads it through the
// record (scanFrontmatter, then candidateFrontmatter). These tests hold the two to one answer
// over lines built to hit every branch of the grammar, and hold the flat reading to YAML's.

const KEYS = [
  "title",
  "summary",
  "created_at",
  "cwd",
  "keywords",
  "artifact_contract",
  "branch",
  "worktree_path",
  "repo_root_sha",
  "x-tool",
  "__proto__",
  "constructor",
  "Title",
  "_private",
  "a-b",
  "9lives",
  "bad key",
  "ключ",
  "",
];
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
    ["x: 1\nx: 2\n", undefined],
    ['__proto__: "p"\ntitle: "t"\n', { title: "t" }],
    ['title: "crlf"\r\nsummary: "s"\r\n', { title: "crlf", summary: "s" }],
    // A lone CR is a line break to YAML: not flat, and YAML decides.
    ['title: "two crs"\r\r\n', undefined],
    ['\r\ntitle: "blank CRLF line first"\n', { title: "blank CRLF line first" }],
    ['title:"no gap"\n', undefined],
    ["title: \n", undefined],
    ['# comment\n\n   \ntitle: "t"\n', { title: "t" }],
    ['  title: "indented"\n', undefined],
    ['title: "esc\\u0041ped"\n', { title: "escAped" }],
    ["artifact_contract: nope\n", undefined],
    ['artifact_contract: 7\ntitle: "t"\n', { title: "t" }],
  ])("%j", (block, expected) => {
    expect(indexFlatFrontmatter(block)).toEqual(expected);
    expect(throughRecord(block)).toEqual(expected ?? "not flat");
  });
});

/** The general path discovery takes for a head the written-shape match does not take. */
function generalIndex(head: Uint8Array) {
  const block = locateFrontmatter(head);
  return block.kind === "block" ? (indexFlatFrontmatter(block.text) ?? "not flat") : block.code;
}

describe("indexWrittenShape: one match for what create writes, the general path's answer", () => {
  const PLAIN_VALUES = ["plain", "", "Ünïcödé 日本語 🚀", "colon: inside", "# hash", "a, b", "[not a list]", "2026-11-30T10:00:00.000Z", "/work/project"];
  // Values the serialiser escapes: a head with one of these is not the one match's to take.
  const ESCAPED = ['say "hi"', "back\\slash", "tab\there", "line\u2028sep"];
  const OPTIONAL = ["resume_focus", "repository", "repo_root_sha", "branch", "head", "worktree_path"] as const;

  function written(count: number): string[] {
    const pick = generator(7);
    const value = () => (pick([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]) === 1 ? pick(ESCAPED) : pick(PLAIN_VALUES));
    const heads: string[] = [];
    for (let i = 0; i < count; i++) {
      const fields: CeFields = {
        artifact_contract: CE_CONTRACT,
        created_at: value(),
        title: value(),
        summary: value(),
        keywords: Array.from({ length: pick([0, 1, 2, 3]) }, value),
        cwd: value(),
      };
      for (const key of OPTIONAL) if (pick([0, 1]) === 1) fields[key] = value();
      // What create writes in a git checkout: `dirty` is a boolean, then the tree's digest and the bundle's name.
      const dirty = pick([0, 1, 2]);
      if (dirty > 0) fields.dirty = dirty === 2;
      if (dirty === 2) {
        fields.dirty_tree_sha256 = "a".repeat(64);
        if (pick([0, 1]) === 1) fields.changes = "handoff.changes";
      }
      heads.push(serializeCeFrontmatter(fields));
    }
    return heads;
  }

  // What other tools (or hands) make of the same text: still flat, or not, but not our shape.
  const MUTATIONS: [string, (head: string) => string][] = [
    ["CRLF", (head) => head.replaceAll("\n", "\r\n")],
    ["CRLF on one line", (head) => head.replace("\n", "\r\n")],
    [
      "two lines swapped",
      (head) => {
        const lines = head.split("\n");
        [lines[2], lines[3]] = [lines[3]!, lines[2]!];
        return lines.join("\n");
      },
    ],
    ["a line twice", (head) => head.replace(/\ntitle: [^\n]*\n/, (line) => line + line.slice(1))],
    ["an unknown key", (head) => head.replace("\n---\n", '\nx-tool: "v"\n---\n')],
    ["two spaces after a colon", (head) => head.replace("title: ", "title:  ")],
    ["a tab after a colon", (head) => head.replace("cwd: ", "cwd:\t")],
    ["keywords spaced", (head) => head.replace(/keywords: \[([^\n]*)\]/, "keywords: [ $1 ]")],
    ["keywords unspaced", (head) => head.replace(/keywords: [^\n]*/, (line) => line.replaceAll('", "', '","'))],
    ["a comment line", (head) => head.replace("\ntitle", "\n# note\ntitle")],
    ["a blank line", (head) => head.replace("\ntitle", "\n\ntitle")],
    ["no artifact_contract", (head) => head.replace(/artifact_contract: [^\n]*\n/, "")],
    ["a number value", (head) => head.replace(/cwd: [^\n]*/, "cwd: 7")],
    ["a BOM", (head) => `\ufeff${head}`],
    ["a lone CR", (head) => head.replace("\ntitle", "\r\ntitle").replace("\r\ntitle", "\r\rtitle")],
    ["the body after it", (head) => `${head}\nbody\n`],
  ];

  const encoder = new TextEncoder();
  const heads = written(1500);

  it("1,500 heads the serialiser wrote: the same index as the general path, most by the one match", () => {
    let matched = 0;
    for (const head of heads) {
      const bytes = encoder.encode(head);
      const fast = indexWrittenShape(bytes);
      const general = generalIndex(bytes);
      if (fast !== undefined) {
        expect({ head, index: fast }).toEqual({ head, index: general });
        matched++;
      } else {
        // Only a value that needed an escape keeps a written head off the one match.
        expect(head).toMatch(/\\/);
      }
    }
    expect(matched).toBeGreaterThan(300);
  });

  it("without keywords (a search without any): the same index, keywords left out, and the same ranking", () => {
    const withoutKeywords = writtenTextIndexer({ keywords: false });
    const query = { keywords: [], now: Date.parse("2026-12-01T00:00:00Z"), current: { cwd: "/work/project", repository: "plain", repo_root_sha: "plain", toplevel: "/work", branch: "plain" } };
    const ranker = createRanker(query);
    let compared = 0;
    for (const head of heads) {
      const full = indexWrittenText(head);
      if (full === undefined) continue;
      expect(withoutKeywords(head)).toEqual({ ...full, keywords: undefined });
      const meta = (frontmatter: typeof full): CandidateMeta => ({ path: `/store/repo-0123456789ab/h${compared}.md`, fileName: `h${compared}.md`, indexed: true, mtimeMs: 0, frontmatter });
      expect(ranker.explain(meta(withoutKeywords(head)!))).toEqual({ ...ranker.explain(meta(full)), frontmatter: { ...full, keywords: undefined } });
      compared++;
    }
    expect(compared).toBeGreaterThan(300);
  });

  it.each(MUTATIONS)("%s: the one match agrees with the general path or leaves the head to it", (_name, mutate) => {
    for (const head of heads.slice(0, 300)) {
      const bytes = encoder.encode(mutate(head));
      const fast = indexWrittenShape(bytes);
      if (fast !== undefined) expect({ head: mutate(head), index: fast }).toEqual({ head: mutate(head), index: generalIndex(bytes) });
    }
  });
});

describe("indexWrittenText, for text a lenient decode made", () => {
  it("refuses a U+FFFD anywhere in a value: it may stand for a byte that was not UTF-8", () => {
    const head = '---\ntitle: "ok"\nsummary: "bad \ufffd byte"\n---\n';
    expect(indexWrittenText(head.replace("\ufffd", ""))).toEqual({ title: "ok", summary: "bad  byte" });
    expect(indexWrittenText(head)).toBeUndefined();
    expect(indexWrittenText('---\nkeywords: ["a", "\ufffd"]\n---\n')).toBeUndefined();
  });

  it("gives every index one shape: a field the head lacks is there, undefined", () => {
    const index = indexWrittenText('---\ntitle: "t"\n---\n')!;
    expect(Object.keys(index).sort()).toEqual(["branch", "created_at", "cwd", "head", "keywords", "repo_root_sha", "repository", "resume_focus", "summary", "title", "worktree_path"]);
    expect(index).toEqual({ title: "t" });
  });
});
