import { describe, expect, it } from "vitest";
import { detectFormat } from "../../shared/document/sniff.js";
import { parseSource } from "../../shared/orient/source.js";

const ce = '---\nartifact_contract: "ce-handoff/v1"\ncreated_at: "2026-11-30T10:00:00Z"\ntitle: "Auth: \\"refresh\\""\n---\n\n# Auth\n';
const foreignFlat = '---\ntitle: "Notes"\ncreated_at: "2026-11-01T00:00:00Z"\n---\n# Notes\n';
const foreignYaml = "---\ntitle: Notes in plain YAML\nkeywords:\n  - a\n---\n# Notes\n";
const manifest = JSON.stringify({ schema: "kernel.handoff/v1", identity: { name: "ship", created: "2026-07-10T21:45:00Z" } });
const checkpoint = JSON.stringify({ schema: "kernel.checkpoint/v1", identity: { name: "cp", created: "2026-07-10T21:45:00Z" } });

describe("detectFormat", () => {
  it.each([
    ["a ce handoff", ce, { format: "ce-handoff/v1", created_at: "2026-11-30T10:00:00Z", title: 'Auth: "refresh"' }],
    ["another tool's flat frontmatter", foreignFlat, { format: "markdown", created_at: "2026-11-01T00:00:00Z", title: "Notes" }],
    ["frontmatter in general YAML (fields unread)", foreignYaml, { format: "markdown" }],
    ["a kernel manifest", manifest, { format: "kernel.handoff/v1", created_at: "2026-07-10T21:45:00Z", title: "ship" }],
    ["a kernel checkpoint", checkpoint, { format: "kernel.checkpoint/v1", created_at: "2026-07-10T21:45:00Z", title: "cp" }],
    ["other JSON", '{"a": 1}', { format: "text" }],
    ["JSON with a duplicate key", '{"schema": "kernel.handoff/v1", "schema": "x"}', { format: "text" }],
    ["Markdown without frontmatter", "# Title\n\nbody", { format: "markdown" }],
    ["plain text", "goal: ship it", { format: "text" }],
    ["a ---js opener", "---js\nmodule.exports = {}\n---\n", { format: "text" }],
  ])("%s", (_name, text, expected) => {
    expect(detectFormat(text)).toEqual(expected);
  });

  it.each([ce, foreignFlat, foreignYaml, manifest, checkpoint, "# Title\n\nbody", "goal: ship it"])("names the same format as the full parser (%#)", (text) => {
    expect(detectFormat(text).format).toBe(parseSource(text).format);
  });
});
