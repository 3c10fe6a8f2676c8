import { describe, expect, it } from "vitest";
import { renderKernelMarkdown } from "../../../shared/kernel/render.js";
import type { KernelHandoff } from "../../../shared/kernel/schema.js";
import { validateKernelValue } from "../../../shared/kernel/validate.js";
import { fullManifest } from "../../helpers/kernel-corpus.js";
import { EXAMPLE_FILE, exampleManifest } from "./fixtures.js";

function valid(change: (m: Record<string, any>) => void = () => {}): KernelHandoff {
  const m = exampleManifest();
  change(m);
  const result = validateKernelValue(m);
  if (!result.manifest) throw new Error(JSON.stringify(result.issues));
  return result.manifest;
}

/** Lines outside fenced code blocks, which is where structure lives. */
function structuralLines(markdown: string): string[] {
  let fence: string | undefined;
  const out: string[] = [];
  for (const line of markdown.split("\n")) {
    const open = /^(`{3,})/.exec(line);
    if (fence === undefined && open) fence = open[1];
    else if (fence !== undefined && line === fence) fence = undefined;
    else if (fence === undefined) out.push(line);
  }
  return out;
}

describe("renderKernelMarkdown", () => {
  it("renders the real manifest (golden)", async () => {
    const markdown = renderKernelMarkdown(valid(), EXAMPLE_FILE);
    expect(markdown.split("\n")[0]).toBe(`# RENDERED FROM ${EXAMPLE_FILE} — NOT AUTHORITATIVE`);
    await expect(markdown).toMatchFileSnapshot("__snapshots__/example.rendered.md");
  });

  it("renders every section the manifest has", () => {
    const headings = structuralLines(renderKernelMarkdown(valid(), EXAMPLE_FILE)).filter((l) => l.startsWith("## "));
    expect(headings).toEqual([
      "## Identity and provenance",
      "## Objective",
      "## Contract",
      "## Phases",
      "## Runtime",
      "## Context",
      "## Execution",
      "## Open threads",
      "## Warnings (failed approaches, do not re-explore)",
      "## Outputs",
      "## Resume",
    ]);
  });

  it("leaves out sections the manifest does not have", () => {
    const markdown = renderKernelMarkdown(
      valid((m) => {
        for (const key of ["contract", "runtime", "open_threads", "warnings", "outputs"]) delete m[key];
      }),
      "m.json",
    );
    expect(markdown).not.toMatch(/## (Contract|Runtime|Open threads|Warnings|Outputs|Other fields)/);
  });

  it("shows every field the schema has, provenance.retrospective_refs included", () => {
    const full = fullManifest();
    const result = validateKernelValue(full);
    expect(result.issues).toEqual([]);
    const markdown = renderKernelMarkdown(result.manifest!, "full.json");
    const leaves: string[] = [];
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${at}[${i}]`));
      else if (value !== null && typeof value === "object") for (const [key, v] of Object.entries(value)) walk(v, at === "" ? key : `${at}.${key}`);
      else if (at !== "schema") leaves.push(at);
    };
    walk(full, "");
    const get = (path: string) =>
      path
        .split(/\.|\[|\]/)
        .filter(Boolean)
        .reduce<any>((node, key) => node[key], full);
    const missing = leaves.filter((path) => {
      const value = get(path);
      if (typeof value === "boolean") return !markdown.includes(value ? "Uncommitted changes: yes" : "Uncommitted changes: no");
      return !markdown.includes(String(value));
    });
    expect(missing).toEqual([]);
    expect(markdown).toContain("_meta/retro/full-retro.json");
  });

  it.each([
    ["a leading #", "# Not a heading", "\\# Not a heading"],
    ["a leading quote", "> not a quote", "\\> not a quote"],
    ["a list marker", "- not a list", "\\- not a list"],
    ["an ordered marker", "1. not a list", "1\\. not a list"],
    ["a fence", "```js", "\\```js"],
    ["an HTML block", "<script>alert(1)</script>", "\\<script>alert(1)\\</script>"],
  ])("escapes %s in a value", (_name, value, expected) => {
    const markdown = renderKernelMarkdown(
      valid((m) => (m.open_threads = [value])),
      "m.json",
    );
    expect(markdown).toContain(`## Open threads\n\n- ${expected}\n`);
  });

  it("keeps a multi-line value inside its list item and its headings harmless", () => {
    const value = "first line\n# injected heading\n\n## Resume\n---\n```\nstill text";
    const markdown = renderKernelMarkdown(
      valid((m) => {
        m.warnings = [value];
        m.objective.goal = value;
        m.workflow.phases[0].evidence = value;
      }),
      "m.json",
    );
    const headings = structuralLines(markdown).filter((l) => /^#{1,6} /.test(l));
    expect(headings.filter((h) => h.includes("injected") || h === "## Resume")).toEqual(["## Resume"]);
    expect(markdown).toContain("- first line\n  \\# injected heading\n\n  \\## Resume\n  \\---\n  \\```\n  still text\n");
  });

  it("puts values with backticks in code spans that hold them", () => {
    const markdown = renderKernelMarkdown(
      valid((m) => (m.context.forbidden = ["a`b", "``x"])),
      "m.json",
    );
    expect(markdown).toContain("- ``a`b``\n- ``` ``x ```\n");
  });

  it("fences the resume prompt with a fence longer than any backtick run in it", () => {
    const markdown = renderKernelMarkdown(
      valid((m) => (m.resume.prompt = "run ````x````\n\nthen stop")),
      "m.json",
    );
    expect(markdown).toContain("## Resume\n\n`````\nrun ````x````\n\nthen stop\n`````\n");
  });

  it("shows grep, git diff and line selectors", () => {
    const markdown = renderKernelMarkdown(
      valid((m) => (m.context.optional = [{ path: "a.md", grep: "TODO", context: 2, reason: "todos" }, { git_diff: "main..HEAD" }])),
      "m.json",
    );
    expect(markdown).toContain("### Optional selectors\n\n- `a.md`, grep `TODO` (±2 lines): todos\n- git diff `main..HEAD`\n");
  });
});
