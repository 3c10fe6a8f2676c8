import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readFrontmatter } from "../../shared/ce/read-frontmatter.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { frontmatterOf, strictYaml12Problems } from "../helpers/strict-yaml.js";
import { git, makeRepo } from "./git-repo.js";
import { type Sandbox, ceText, resumeJson, sandbox } from "./resume-sandbox.js";

beforeAll(ensureBuilt);

async function createJson(box: Sandbox, cwd: string, args: string[], body = "# Notes\n\nObjective: x.\n\n## Current state\nHalf done.\n") {
  const run = await runCli(["create", "--json", ...args], { cwd, env: box.env, input: body });
  return { run, result: run.code === 0 ? (JSON.parse(run.stdout) as { path: string; warnings: { code: string; message: string }[]; metadata: Record<string, unknown> }) : undefined };
}

describe("create keeps the frontmatter inside the bounds discovery reads", () => {
  it("a summary past 16 KiB is shortened, and says so; discovery indexes the file", async () => {
    const box = sandbox();
    const { run, result } = await createJson(box, box.base, ["--title", "Long one", "--summary", "word ".repeat(5000), "--keyword", "k1", "--keyword", "k2"]);
    expect(run.code).toBe(0);
    expect(result!.warnings.map((w) => w.code)).toContain("frontmatter_shortened");
    expect(run.stderr).toContain("shortened summary");
    const text = readFileSync(result!.path, "utf8");
    expect(readFrontmatter(new TextEncoder().encode(text).subarray(0, 16 * 1024)).kind).toBe("indexed");
    expect((result!.metadata.summary as string).endsWith("…")).toBe(true);
    expect(result!.metadata.keywords).toEqual(["k1", "k2"]);
  });

  it("many long keywords: the summary keeps a useful length, keywords go from the end", async () => {
    const box = sandbox();
    const keywords = Array.from({ length: 40 }, (_, i) => ["--keyword", `${i}-${"k".repeat(500)}`]).flat();
    const { result } = await createJson(box, box.base, ["--title", "Many", "--summary", "s".repeat(1000), ...keywords]);
    expect(result!.warnings.find((w) => w.code === "frontmatter_shortened")?.message).toMatch(/keywords/);
    expect((result!.metadata.keywords as string[]).length).toBeLessThan(40);
    expect((result!.metadata.keywords as string[])[0]).toMatch(/^0-/);
    expect(readFrontmatter(readFileSync(result!.path).subarray(0, 16 * 1024)).kind).toBe("indexed");
  });

  it("a title past the bounds is refused: nothing written, exit 1", async () => {
    const box = sandbox();
    const { run } = await createJson(box, box.base, ["--title", "t".repeat(20_000)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/would not fit in the first 64 lines \/ 16 KiB/);
  });

  it("hostile characters in title, summary and keywords: a strict YAML 1.2 parser accepts the file", async () => {
    const box = sandbox();
    const hostile = "a\u007fb\u0085c\u009fd\ufeffe\ufffef\uffffg\u2028h";
    const { run, result } = await createJson(box, box.base, ["--title", `T ${hostile}`, "--summary", `S ${hostile}`, "--keyword", hostile]);
    expect(run.code).toBe(0);
    const text = readFileSync(result!.path, "utf8");
    expect(strictYaml12Problems(frontmatterOf(text)!)).toEqual([]);
    expect(result!.metadata.title).toBe(`T ${hostile}`);
  });
});

describe("a file named explicitly is read whole (the bounds are discovery's)", () => {
  it("resume keeps the metadata and the drift report of a valid ce-handoff with a 20 KiB summary", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"));
    const head = git(repo, "rev-parse", "HEAD");
    const path = join(box.base, "long.md");
    const text = ceText({ title: "Long summary", summary: "x".repeat(20_000), cwd: repo }, "# Notes\n\nObjective: ship it.\n\n## Current state\nTests pass; the release is next.\n");
    writeFileSync(path, text.replace('cwd: "', `branch: "main"\nhead: "${head}"\ncwd: "`));
    const { code, result } = await resumeJson(box, [path], repo);
    expect(code).toBe(0);
    expect(result.metadata.title).toBe("Long summary");
    expect(result.drift.map((d: { event: string }) => d.event)).toEqual(["branch_match", "commit_match"]);
    const validate = await runCli(["validate", path, "--json"], { cwd: box.base, env: box.env });
    expect(validate.code).toBe(0);
    expect(JSON.parse(validate.stdout)).toMatchObject({ valid: true, warnings: [{ path: "frontmatter", message: expect.stringMatching(/discovery cannot index it/) }] });
  });
});
