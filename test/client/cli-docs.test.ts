import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { flagTable } from "../../client/cli/help.js";
import { COMMANDS as BOUND } from "../../client/cli/registry.js";

const COMMANDS = BOUND.map((c) => c.spec);

// docs/cli.md's flag tables are generated from the command declarations, like --help. Run with
// UPDATE_DOCS=1 to rewrite them after changing a declaration.
const docsPath = new URL("../../docs/cli.md", import.meta.url);

function generated(docs: string): string {
  let out = docs;
  for (const spec of COMMANDS) {
    const open = `<!-- flags:${spec.name} -->`;
    const close = `<!-- /flags:${spec.name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    const block = `${open}\n${flagTable(spec as never)}\n${close}`;
    out =
      start === -1 || end === -1
        ? `${out.trimEnd()}\n\n## \`handoff ${spec.name}${spec.args ? ` ${spec.args}` : ""}\`\n\n${spec.description}\n\n${block}\n`
        : out.slice(0, start) + block + out.slice(end + close.length);
  }
  return out;
}

describe("docs/cli.md", () => {
  it("holds every command's flag table exactly as generated from its declaration", () => {
    const docs = readFileSync(docsPath, "utf8");
    const expected = generated(docs);
    if (process.env.UPDATE_DOCS === "1") writeFileSync(docsPath, expected);
    expect(docs).toBe(expected);
  });
});
