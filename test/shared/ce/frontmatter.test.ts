import { describe, expect, it } from "vitest";
import { CE_CONTRACT, type CeFields } from "../../../shared/ce/contract.js";
import { parseCeDocument } from "../../../shared/ce/document.js";
import { FRONTMATTER_MAX_BYTES, FRONTMATTER_MAX_LINES } from "../../../shared/ce/contract.js";
import { readFrontmatter } from "../../../shared/ce/read-frontmatter.js";
import { quoteScalar, serializeCeDocument, serializeCeFrontmatter } from "../../../shared/ce/serialize.js";

const base: CeFields & Record<string, unknown> = {
  artifact_contract: CE_CONTRACT,
  created_at: "2026-07-10T09:30:00.123Z",
  title: "Auth refactor",
  summary: "Token refresh is half done.",
  keywords: ["auth", "tokens"],
  cwd: "/src/app",
};

const NASTY = [
  'say "hi"',
  "colon: value",
  "line one\nline two\r\nthree",
  "# not a comment",
  "---",
  "--- inside ---",
  "tab\there",
  "back\\slash",
  "unicode: Ünïcödé ß 日本語",
  "emoji 🚀🧪 and ZWJ 👩‍💻",
  "line\u2028separator\u2029para\u0085nel\ufeffbom",
  "'single' and `tick` and $HOME and {braces} [brackets] & *star !tag %percent @at",
  "  leading and trailing  ",
  "null",
  "true",
  "123",
  "\u0000\u0007\u001b control",
];

describe("serialise then read: every field round-trips exactly", () => {
  const fields = ["title", "summary", "cwd", "resume_focus", "repository", "branch", "worktree_path"] as const;
  const cases = NASTY.flatMap((value) => fields.map((field) => ({ field, value })));
  it.each(cases)("$field = $value", ({ field, value }) => {
    const path = field === "cwd" || field === "worktree_path" ? `/abs/${value}` : value;
    const input: CeFields = { ...base, [field]: path, keywords: [value, "plain"] };
    const text = serializeCeDocument(input, "# Body\n");
    const read = readFrontmatter(text);
    expect(read.kind).toBe("indexed");
    if (read.kind !== "indexed") return;
    expect(read.data).toEqual(input);
    // The fast path parsed it; YAML would agree (checked below for the same quoting).
    const doc = parseCeDocument(text);
    expect(doc.data).toEqual(input);
    expect(doc.body).toBe("# Body\n");
  });

  it("writes the keys in the contract's order, optional ones only when present", () => {
    const text = serializeCeFrontmatter({ ...base, head: "a".repeat(40), resume_focus: "next" });
    expect(text.split("\n").map((l) => l.split(":")[0])).toEqual(["---", "artifact_contract", "created_at", "title", "summary", "keywords", "cwd", "resume_focus", "head", "---", ""]);
    expect(text).toContain('keywords: ["auth", "tokens"]');
  });

  it.each(NASTY)("quoteScalar(%j) stays on one line and means the same to YAML", async (value) => {
    const quoted = quoteScalar(value);
    expect(quoted).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
    const { parse } = await import("yaml");
    expect(parse(`k: ${quoted}`)).toEqual({ k: value });
  });
});

describe("readFrontmatter bounds and openers", () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: "v"`).join("\n");
  const table: { name: string; text: string | Uint8Array; kind: "indexed" | "unindexed"; code?: string }[] = [
    { name: "our shape", text: '---\ntitle: "x"\n---\nbody', kind: "indexed" },
    { name: "CRLF line ends", text: '---\r\ntitle: "x"\r\n---\r\nbody', kind: "indexed" },
    { name: "---js opener is never evaluated", text: "---js\nmodule.exports = {}\n---\n", kind: "unindexed", code: "no_opener" },
    { name: "---json opener", text: '---json\n{"a":1}\n---\n', kind: "unindexed", code: "no_opener" },
    { name: "BOM before opener", text: '\ufeff---\ntitle: "x"\n---\n', kind: "unindexed", code: "no_opener" },
    { name: "leading space", text: ' ---\ntitle: "x"\n---\n', kind: "unindexed", code: "no_opener" },
    { name: "no frontmatter", text: "# Just markdown\n", kind: "unindexed", code: "no_opener" },
    { name: "empty", text: "", kind: "unindexed", code: "no_opener" },
    { name: "70 lines without a closing delimiter", text: `---\n${lines(70)}\n`, kind: "unindexed", code: "no_closing_delimiter" },
    { name: "closing delimiter on line 64", text: `---\n${lines(62)}\n---\n`, kind: "indexed" },
    { name: "closing delimiter on line 65", text: `---\n${lines(63)}\n---\n`, kind: "unindexed", code: "no_closing_delimiter" },
    { name: "closing beyond 16 KiB", text: `---\ntitle: "${"x".repeat(FRONTMATTER_MAX_BYTES)}"\n---\n`, kind: "unindexed", code: "no_closing_delimiter" },
    { name: "closing at end of input without newline", text: '---\ntitle: "x"\n---', kind: "indexed" },
    { name: "other tools' YAML: plain, single quotes, block list", text: "---\ntitle: Plain title\nsummary: 'it''s'\nkeywords:\n  - a\n  - b\n---\n", kind: "indexed" },
    { name: "duplicate keys are an error, not last-wins", text: '---\ntitle: "a"\ntitle: "b"\n---\n', kind: "unindexed", code: "invalid_yaml" },
    { name: "custom tag rejected", text: "---\ntitle: !!js/function 'x'\n---\n", kind: "unindexed", code: "invalid_yaml" },
    {
      name: "alias bomb stops",
      text: `---\na: &a ["x","x","x","x","x","x","x","x","x","x"]\n${Array.from({ length: 12 }, (_, i) => `b${i}: [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]`).join("\n")}\n---\n`,
      kind: "unindexed",
      code: "invalid_yaml",
    },
    { name: "a scalar is not a mapping", text: "---\njust text\n---\n", kind: "unindexed", code: "invalid_yaml" },
    { name: "invalid UTF-8", text: new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0x74, 0x3a, 0x20, 0xff, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]), kind: "unindexed", code: "not_utf8" },
  ];
  it.each(table)("$name", ({ text, kind, code }) => {
    const read = readFrontmatter(text);
    expect(read.kind).toBe(kind);
    if (code) expect(read).toMatchObject({ code });
  });

  it("exports the contract's bounds", () => {
    expect([FRONTMATTER_MAX_LINES, FRONTMATTER_MAX_BYTES]).toEqual([64, 16384]);
  });

  it("reads other tools' YAML into values", () => {
    const read = readFrontmatter("---\ntitle: Plain title\nsummary: 'it''s'\nkeywords:\n  - a\n  - b\n---\n");
    expect(read).toMatchObject({ kind: "indexed", data: { title: "Plain title", summary: "it's", keywords: ["a", "b"] } });
  });

  it("counts bytes through the closing delimiter and stops there", () => {
    const head = '---\ntitle: "é"\n---\nBODY IS NEVER PARSED: [unclosed';
    const read = readFrontmatter(head);
    expect(read).toMatchObject({ kind: "indexed", bytesRead: new TextEncoder().encode('---\ntitle: "é"\n---\n').length });
  });

  it("does not trust a truncated head that ends inside a line", () => {
    // The head's last line reads "---", but the file's line is "---extra", which closes nothing.
    const full = new TextEncoder().encode(`---\ntitle: "${"x".repeat(FRONTMATTER_MAX_BYTES - 17)}"\n---extra\n`);
    const head = full.subarray(0, FRONTMATTER_MAX_BYTES);
    expect(new TextDecoder().decode(head).endsWith("\n---")).toBe(true);
    expect(readFrontmatter(head).kind).toBe("unindexed");
  });

  it("keeps a __proto__ key as data", () => {
    const read = readFrontmatter('---\n__proto__: {"polluted": true}\n---\n');
    expect(read.kind).toBe("indexed");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("sets frontmatter only when the data satisfies ce-handoff/v1", () => {
    const ours = readFrontmatter(serializeCeFrontmatter(base));
    expect(ours.kind === "indexed" && ours.frontmatter?.title).toBe("Auth refactor");
    const theirs = readFrontmatter('---\ntitle: "x"\n---\n');
    expect(theirs.kind === "indexed" && theirs.frontmatter).toBe(undefined);
  });
});

describe("parseCeDocument issues", () => {
  const doc = (fm: Record<string, unknown>, body = "# B\n") =>
    `---\n${Object.entries(fm)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join("\n")}\n---\n\n${body}`;
  const table: { name: string; text: string; issues: string[]; unparseable?: boolean }[] = [
    { name: "valid", text: doc(base), issues: [] },
    { name: "unknown keys are tolerated", text: doc({ ...base, status: "open", x_tool: 1 }), issues: [] },
    { name: "created_at not UTC", text: doc({ ...base, created_at: "2026-07-10T09:30:00+02:00" }), issues: ["frontmatter.created_at: must be ISO-8601 UTC"] },
    { name: "created_at impossible date", text: doc({ ...base, created_at: "2026-02-30T09:30:00Z" }), issues: ["frontmatter.created_at: must be ISO-8601 UTC"] },
    { name: "missing title", text: doc({ ...base, title: undefined }), issues: ["frontmatter.title: is required"] },
    { name: "empty summary", text: doc({ ...base, summary: "  " }), issues: ["frontmatter.summary: must not be empty"] },
    { name: "keyword not a string", text: doc({ ...base, keywords: ["a", 2] }), issues: ["frontmatter.keywords[1]: must be a string"] },
    { name: "relative cwd", text: doc({ ...base, cwd: "src" }), issues: ["frontmatter.cwd: must be an absolute path"] },
    { name: "wrong contract", text: doc({ ...base, artifact_contract: "ce-handoff/v2" }), issues: ['frontmatter.artifact_contract: must be "ce-handoff/v1"'] },
    { name: "bad head", text: doc({ ...base, head: "HEAD" }), issues: ["frontmatter.head: must be a hex commit id"] },
    { name: "empty body", text: doc(base, "\n  \n"), issues: ["body: must not be empty"] },
    { name: "no frontmatter", text: "# Notes\n", issues: ["frontmatter: is missing: the first line must be exactly ---"] },
    { name: "bad YAML is unparseable", text: "---\ntitle: [unclosed\n---\nbody\n", issues: ["frontmatter: invalid YAML: *"], unparseable: true },
  ];
  it.each(table)("$name", ({ text, issues, unparseable }) => {
    const parsed = parseCeDocument(text);
    const got = parsed.issues.map((i) => `${i.path}: ${i.message}`);
    expect(got.map((g, i) => (issues[i]?.endsWith("*") ? `${g.slice(0, issues[i]!.length - 1)}*` : g))).toEqual(issues);
    expect(parsed.unparseable !== undefined).toBe(Boolean(unparseable));
  });
});
