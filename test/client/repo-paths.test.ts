import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../client/cli/main.js";
import { decide } from "../../client/ops/guard/decide.js";
import type { Io } from "../../client/platform/io.js";
import { partialRealpath, repoRelative } from "../../client/platform/paths.js";
import { repoRoot } from "../helpers/cli.js";
import { git, makeRepo, tempDir } from "./git-repo.js";

// One rule for "is this path inside the repository" (client/platform/paths.ts, the rule of
// shared/kernel/checks.ts checkRepoPath): only a '..' segment leaves; '..foo' and '...' are names,
// and a symlink counts where it leads. The same table goes through every surface that judges a
// repository path, and each must give the same verdict:
//   validate    a manifest's context.required[0].path: no issue about it
//   context     that selector compiled: not "invalid"
//   guard       a Read of the path under an active sealed manifest: the target it reaches is repo-relative
//   checkpoint  --from the path: the checkpoint's handoff_ref is repo-relative
//   resume      a manifest pinning the path (provenance.artifacts): artifact_match, not missing

const base = realpathSync(tempDir("handoff-repo-paths-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const example = JSON.parse(readFileSync(join(repoRoot, "test/fixtures/kernel/example.yaml-skill-unification-2026-07-10.json"), "utf8")) as Record<string, unknown> & {
  context: { required: { path: string }[] };
  provenance: { artifacts?: { path: string; sha256: string }[] } & Record<string, unknown>;
};
/** Every file the table names holds this manifest, so --from and the pins can read any of them. */
const manifestText = `${JSON.stringify(example, null, 2)}\n`;
const manifestSha = createHash("sha256").update(manifestText).digest("hex");

const outside = join(base, "outside");
mkdirSync(outside);
writeFileSync(join(outside, "secret.json"), manifestText);
const repo = makeRepo(join(base, "repo"), { "..foo": manifestText, "...": manifestText, "a\\..\\b": manifestText, "inside.json": manifestText, "a/keep.md": "# a\n" });
symlinkSync(join(outside, "secret.json"), join(repo, "out-link"));
symlinkSync(join(repo, "inside.json"), join(repo, "in-link"));
git(repo, "add", "-A");
git(repo, "commit", "-q", "-m", "links");

const CASES: [string, boolean][] = [
  ["..", false],
  ["..foo", true],
  ["...", true],
  ["a/../..", false],
  ["a\\..\\b", true],
  ["out-link", false],
  ["in-link", true],
];

const env = { PATH: process.env.PATH, HOME: base, HANDOFF_ROOT: join(base, "store"), GIT_CONFIG_NOSYSTEM: "1" };

async function cli(argv: string[]): Promise<{ code: number; json: unknown }> {
  const out: string[] = [];
  const io: Io = { out: (t) => void out.push(t), err: () => undefined, progress: (_m, w) => w, stdin: Readable.from([]), stdinIsTTY: false, env, cwd: repo, color: false };
  const code = await main(argv, io);
  const text = out.join("");
  return { code, json: text.trim() === "" ? undefined : JSON.parse(text) };
}

let files = 0;
function manifestFile(edit: (manifest: typeof example) => void): string {
  const manifest = structuredClone(example);
  edit(manifest);
  const file = join(base, `m-${files++}.json`);
  writeFileSync(file, JSON.stringify(manifest, null, 2));
  return file;
}

/** A manifest whose first required selector is `path`. */
const selectorManifest = (path: string) =>
  manifestFile((m) => {
    m.context.required[0]!.path = path;
  });

const SURFACES: Record<string, (path: string) => Promise<boolean>> = {
  async validate(path) {
    const { json } = await cli(["validate", selectorManifest(path), "--json"]);
    return (json as { issues: { path: string }[] }).issues.every((issue) => !issue.path.startsWith("context.required[0].path"));
  },
  async context(path) {
    const { json } = await cli(["context", selectorManifest(path), "--repo", repo, "--json"]);
    const pieces = (json as { bundle?: { pieces: { list: string; index: number; outcome: string }[] } }).bundle?.pieces ?? [];
    const piece = pieces.find((p) => p.list === "required" && p.index === 0);
    return piece !== undefined && piece.outcome !== "invalid";
  },
  async guard(path) {
    const pointer = { manifest: "m.json", schema: "kernel.handoff/v1", mode: "sealed" as const, forbidden: [], allowlist: [], activated: "2026-07-10T00:00:00Z" };
    const decision = decide(pointer, { tool_name: "Read", tool_input: { file_path: path }, cwd: repo }, { root: repo, cwd: repo, home: base });
    const reached = decision.targets[0]!.split("|").at(-1)!;
    return !reached.startsWith("/");
  },
  async checkpoint(path) {
    const to = join(base, `checkpoint-${files++}.json`);
    const { code } = await cli(["checkpoint", "--from", path, "--position", "p", "--next", "n", "--to", to, "--json"]);
    if (code !== 0) return false;
    const ref = (JSON.parse(readFileSync(to, "utf8")) as { task: { handoff_ref?: string } }).task.handoff_ref;
    return ref !== undefined && !ref.startsWith("/");
  },
  async resume(path) {
    const file = manifestFile((m) => {
      m.provenance.artifacts = [{ path, sha256: manifestSha }];
    });
    const { json } = await cli(["resume", file, "--json"]);
    const drift = (json as { drift?: { event: string }[] } | undefined)?.drift ?? [];
    return drift.some((d) => d.event === "artifact_match");
  },
};

describe("repository paths: one verdict on every surface", () => {
  it.each(CASES)("%j: inside is %s for repoRelative", (path, inside) => {
    expect(repoRelative(repo, partialRealpath(join(repo, path))) !== undefined).toBe(inside);
  });

  for (const [surface, judge] of Object.entries(SURFACES)) {
    it.each(CASES)(`%j: inside is %s for ${surface}`, async (path, inside) => {
      expect(await judge(path)).toBe(inside);
    });
  }

  it("validate accepts ..foo and ... as a selector path (no such symlink)", async () => {
    for (const name of ["..foo", "..."]) {
      const { json } = await cli(["validate", selectorManifest(name), "--json"]);
      expect((json as { issues: { message: string }[] }).issues.filter((i) => /outside|climbs/.test(i.message))).toEqual([]);
    }
  });
});
