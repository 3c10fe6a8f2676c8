import { describe, expect, it } from "vitest";
import { CE_CONTRACT } from "../../../shared/ce/contract.js";
import { parseCeDocument } from "../../../shared/ce/document.js";
import { quoteScalar, serializeCeDocument } from "../../../shared/ce/serialize.js";
import { frontmatterOf, strictYaml12Problems } from "../../helpers/strict-yaml.js";

/** Every character YAML 1.2 forbids raw in a stream, plus the ones some readers break lines on. */
const HOSTILE: [string, string][] = [
  ["DEL", "\u007f"],
  ["C1 U+0080", "\u0080"],
  ["NEL U+0085", "\u0085"],
  ["C1 U+009F", "\u009f"],
  ["BOM", "\ufeff"],
  ["U+FFFE", "\ufffe"],
  ["U+FFFF", "\uffff"],
  ["LINE SEPARATOR", "\u2028"],
  ["PARAGRAPH SEPARATOR", "\u2029"],
  ["NUL", "\u0000"],
  ["ESC", "\u001b"],
  ["a quote and a backslash", '"\\'],
  ["a newline", "\n"],
  ["an emoji", "😀"],
];

function document(value: string): string {
  return serializeCeDocument({ artifact_contract: CE_CONTRACT, created_at: "2026-07-10T09:30:00Z", title: `t${value}t`, summary: `s${value}s`, keywords: [`k${value}`], cwd: "/w" }, "# Body\n");
}

describe("the ce-handoff serializer and a strict YAML 1.2 parser", () => {
  it.each(HOSTILE)("%s in title, summary and keywords: accepted by a strict YAML 1.2 parser, and read back exactly", (_name, value) => {
    const text = document(value);
    expect(strictYaml12Problems(frontmatterOf(text)!)).toEqual([]);
    const parsed = parseCeDocument(text);
    expect(parsed.issues.filter((i) => !i.path.startsWith("frontmatter.keywords"))).toEqual([]);
    expect(parsed.data.title).toBe(`t${value}t`);
    expect(parsed.data.summary).toBe(`s${value}s`);
  });

  it("a lone surrogate becomes U+FFFD (no UTF-8 file can hold one), still strict YAML", () => {
    expect(quoteScalar("a\ud800b")).toBe('"a\ufffdb"');
    expect(strictYaml12Problems(frontmatterOf(document("\udc00"))!)).toEqual([]);
  });

  it.each([
    ["DEL", "\u007f"],
    ["C1", "\u0090"],
    ["U+FFFE", "\ufffe"],
    ["BOM", "\ufeff"],
  ])("the check itself rejects a raw %s", (_name, raw) => {
    expect(strictYaml12Problems(`title: "a${raw}b"\n`)).not.toEqual([]);
  });
});
