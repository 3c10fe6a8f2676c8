import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GIT_SAFE_CONFIG, filterOverrides } from "../../client/platform/git.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

// `handoff context` in a repository someone else prepared: its .git/config names commands for
// every hook git offers (clean/smudge/process filters, textconv, external diffs, fsmonitor,
// hooks), each of which would write a marker file. The compile must write none, while the same
// repository with plain git writes them (so the check can fail).

beforeAll(ensureBuilt, 120_000);

const EXAMPLE = readFileSync(new URL("../fixtures/kernel/example.yaml-skill-unification-2026-07-10.json", import.meta.url), "utf8");

let base: string;
let repo: string;
let markers: string;
let env: Record<string, string>;
let first: string;

beforeAll(() => {
  base = tempDir("handoff-git-safe-");
  markers = join(base, "markers");
  mkdirSync(markers);
  repo = makeRepo(join(base, "repo"), { ".gitattributes": "*.txt filter=evil diff=evil\n", "notes.txt": "first\n" });
  first = git(repo, "rev-parse", "HEAD");
  writeFileSync(join(repo, "notes.txt"), "second\n");
  git(repo, "commit", "-q", "-am", "second");
  const mark = (name: string) => `touch '${join(markers, name)}'`;
  const hooks = join(base, "hooks");
  mkdirSync(hooks);
  for (const hook of ["post-checkout", "pre-commit", "post-index-change", "reference-transaction"]) {
    writeFileSync(join(hooks, hook), `#!/bin/sh\n${mark(`hook-${hook}`)}\n`, { mode: 0o755 });
  }
  for (const [key, value] of [
    ["filter.evil.clean", `${mark("clean")}; cat`],
    ["filter.evil.smudge", `${mark("smudge")}; cat`],
    ["filter.evil.required", "true"],
    ["diff.evil.textconv", `sh -c '${mark("textconv")}; cat "$0"'`],
    ["diff.evil.command", `sh -c '${mark("diff-command")}'`],
    ["diff.external", `sh -c '${mark("diff-external")}'`],
    ["core.fsmonitor", `sh -c '${mark("fsmonitor")}'`],
    ["core.hooksPath", hooks],
  ] as const) {
    git(repo, "config", key, value);
  }
  // An uncommitted change with an old mtime: git must re-read the file, the moment a clean filter would run.
  writeFileSync(join(repo, "notes.txt"), "third, uncommitted\n");
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(join(repo, "notes.txt"), old, old);
  mkdirSync(join(repo, "_meta"));
  const manifest = JSON.parse(EXAMPLE) as Record<string, unknown>;
  manifest.context = {
    policy: { mode: "advisory" },
    required: [
      { git_diff: "HEAD", reason: "the uncommitted change" },
      { git_diff: `${first}..HEAD`, reason: "the last commit" },
      { path: "notes.txt", reason: "the file" },
    ],
  };
  writeFileSync(join(repo, "_meta", "m.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  env = { ...GIT_ENV, HOME: join(base, "home"), TMPDIR: base };
  mkdirSync(env.HOME!);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("handoff context runs nothing the repository configures", () => {
  it("compiles the diffs with every configured command left unrun", async () => {
    const run = await runCli(["context", "_meta/m.json", "--json"], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    const pieces = (JSON.parse(run.stdout) as { bundle: { pieces: { selector: string; outcome: string; text: string }[] } }).bundle.pieces;
    expect(pieces.map((p) => p.outcome)).toEqual(["resolved", "resolved", "resolved"]);
    expect(pieces[0]!.text).toContain("+third, uncommitted");
    expect(pieces[1]!.text).toContain("+second");
    expect(readdirSync(markers)).toEqual([]);
  });

  it("create, create --format kernel, checkpoint and resume leave every configured command unrun too", async () => {
    const store = { ...env, HANDOFF_ROOT: join(base, "store") };
    const created = await runCli(["create", "--json"], { cwd: repo, env: store, input: "# Filters\n\nCheck that git runs no filter.\n\n## Current state\n\nHalf done.\n" });
    expect(created.code, created.stderr).toBe(0);
    const partial = JSON.stringify({ identity: { name: "filters" }, objective: { goal: "check filters" } });
    const kernel = await runCli(["create", "--format", "kernel", "--to", join(base, "k.json"), "--json"], { cwd: repo, env: store, input: partial });
    expect([0, 1]).toContain(kernel.code);
    const checkpoint = await runCli(["checkpoint", "--goal", "g", "--position", "p", "--next", "n", "--to", join(base, "c.json")], { cwd: repo, env: store });
    expect(checkpoint.code, checkpoint.stderr).toBe(0);
    const resumed = await runCli(["resume", (JSON.parse(created.stdout) as { path: string }).path, "--json"], { cwd: repo, env: store });
    expect([0, 1]).toContain(resumed.code);
    // The checkpoint pins the dirty tree: resuming it re-hashes `git diff --binary HEAD`, the call a clean filter would hook.
    const fromCheckpoint = await runCli(["resume", join(base, "c.json"), "--json"], { cwd: repo, env: store });
    expect([0, 1], fromCheckpoint.stderr).toContain(fromCheckpoint.code);
    expect((JSON.parse(fromCheckpoint.stdout) as { drift: { event: string }[] }).drift.map((d) => d.event)).toContain("dirty_match");
    expect(readdirSync(markers)).toEqual([]);
  });

  // Its diffs carry a `-c` of their own before the subcommand: the runner must still see a diff.
  it("create --with-changes captures the changes and leaves every configured command unrun", async () => {
    const store = { ...env, HANDOFF_ROOT: join(base, "store-changes") };
    const created = await runCli(["create", "--with-changes", "--json"], { cwd: repo, env: store, input: "# Changes\n\nCarry the change.\n\n## Current state\n\nHalf done.\n" });
    expect(created.code, created.stderr).toBe(0);
    expect(readdirSync(markers)).toEqual([]);
  });

  it("the same repository with plain git writes the markers (the check above can fail)", () => {
    const plain = (args: string[]) => execFileSync("git", args, { cwd: repo, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...GIT_ENV }, encoding: "utf8" });
    plain(["diff", "HEAD"]);
    plain(["diff", `${first}..HEAD`]);
    expect(readdirSync(markers).sort()).toEqual(expect.arrayContaining(["clean", "diff-command", "fsmonitor"]));
    for (const name of readdirSync(markers)) rmSync(join(markers, name));
  });
});

describe("GIT_SAFE_CONFIG and filterOverrides", () => {
  it("switch off fsmonitor, hooks and external diff", () => {
    expect(GIT_SAFE_CONFIG).toEqual(["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "diff.external="]);
  });

  it("empty every filter driver the config lists, whatever its name", () => {
    const listing = "filter.lfs.clean\ngit-lfs clean -- %f\0filter.a b.c.smudge\nx.sh\0filter.lfs.required\ntrue\0core.bare\nfalse\0";
    expect(filterOverrides(listing)).toEqual([
      ...["-c", "filter.lfs.clean=", "-c", "filter.lfs.smudge=", "-c", "filter.lfs.process=", "-c", "filter.lfs.required=false"],
      ...["-c", "filter.a b.c.clean=", "-c", "filter.a b.c.smudge=", "-c", "filter.a b.c.process=", "-c", "filter.a b.c.required=false"],
    ]);
    expect(() => filterOverrides("filter.x=y.clean\ncat\0")).toThrow(/cannot be switched off/);
  });
});
