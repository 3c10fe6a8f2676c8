import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../scripts/local-server.js";
import { git, tempDir } from "../client/git-repo.js";
import { ensureBuilt } from "../helpers/cli.js";
import { type Host, commitFiles, json, listFilesDeep, makeHost, makeSharedRepo, startServer } from "./hosts.js";

// Uncommitted work that travels: host A publishes --with-changes (a modified tracked file, a new
// untracked file, a binary file, a file holding a secret); host B applies it on request.

const githubToken = "ghp_" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5";
const BODY = "# Retry path\n\n## Objective\nMake the uploader retry on 503.\n\n## Next steps\n- write the backoff test\n";

interface Resumed {
  changes?: { tracked: { path: string; binary: boolean }[]; untracked: { path: string; bytes: number }[]; left_out: { path: string; reason: string }[] };
  apply_command?: string;
  changes_applied?: { mode: string; tracked: string[]; untracked: string[] };
  changes_not_applied?: { message: string; conflicts?: string[] };
}

let base: string;
let server: LocalServer | undefined;
let pairs = 0;

beforeAll(async () => {
  base = tempDir("handoff-e2e-changes-");
  await ensureBuilt();
  server = await startServer(join(base, "server-state"));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

function pair(): { a: Host; b: Host } {
  const dir = join(base, `pair-${++pairs}`);
  const repos = makeSharedRepo(dir, ["a", "b"], { "README.md": "# Uploader\n\nRetries: none.\n", "retry.ts": "export const tries = 3;\n", "logo.bin": "\u0000\u0001seed\u0000" });
  return { a: makeHost(dir, "a", repos.a!, { HANDOFF_SERVER: server!.url }), b: makeHost(dir, "b", repos.b!) };
}

/** A's uncommitted work: every kind the bundle must carry, and one file it must not. */
function dirtyA(a: Host): void {
  writeFileSync(join(a.repo, "README.md"), "# Uploader\n\nRetries: exponential backoff.\n");
  mkdirSync(join(a.repo, "notes"));
  writeFileSync(join(a.repo, "notes", "plan.txt"), "1. backoff test\n");
  writeFileSync(join(a.repo, "logo.bin"), randomBytes(2048));
  writeFileSync(join(a.repo, "deploy.env"), `GITHUB_TOKEN=${githubToken}\n`);
}

/** Every file of a checkout but .git, as path -> bytes (hex), for comparing two trees. */
function tree(repo: string): Record<string, string> {
  return Object.fromEntries(
    listFilesDeep(repo)
      .map((file) => relative(repo, file))
      .filter((path) => !path.startsWith(".git/"))
      .sort()
      .map((path) => [path, readFileSync(join(repo, path)).toString("hex")]),
  );
}

async function publishWithChanges(a: Host): Promise<{ url: string; changes: NonNullable<Resumed["changes"]>; warnings: string[] }> {
  const run = await a.run(["create", "--title", "Retry path", "--publish", "--with-changes", "--max-views", "5", "--json"], { input: BODY });
  expect(run.code, run.stderr).toBe(0);
  return json(run);
}

describe("publish --with-changes on host A, --apply-changes on host B", () => {
  it("B's tree becomes A's, except the file with a secret, which was named and never sent", async () => {
    const { a, b } = pair();
    dirtyA(a);
    const published = await publishWithChanges(a);
    expect(published.changes.tracked.map((t) => t.path).sort()).toEqual(["README.md", "logo.bin"]);
    expect(published.changes.tracked.find((t) => t.path === "logo.bin")?.binary).toBe(true);
    expect(published.changes.untracked.map((u) => u.path)).toEqual(["notes/plan.txt"]);
    expect(published.changes.left_out).toEqual([{ path: "deploy.env", reason: expect.stringMatching(/^holds a secret \(github-token\)/) }]);
    expect(published.warnings.join("\n")).toContain("--with-changes left deploy.env out");
    // The local bundle beside the handoff: private, and named in the handoff's frontmatter.
    const local = json<{ changes: { path: string }; path: string }>(await a.run(["create", "--title", "Local copy", "--with-changes", "--json"], { input: BODY }));
    expect(statSync(local.changes.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(local.path, "utf8")).toContain(`changes: "${local.changes.path.split("/").pop()}"`);
    expect(readFileSync(local.changes.path).includes(Buffer.from(githubToken))).toBe(false);

    // Resuming without asking applies nothing, and says what the bundle holds.
    const look = await b.run(["resume", "--url-stdin"], { input: published.url });
    expect(look.code, look.stderr).toBe(0);
    expect(look.stdout).toMatch(/^Changes bundle: 3 files, [^,]+, 1 left out by the sender, captured at [0-9a-f]{12}; not applied\. Apply it with: handoff resume --url-stdin --apply-changes$/m);
    expect(look.stdout).toContain("left out   deploy.env: holds a secret");
    expect(git(b.repo, "status", "--porcelain")).toBe("");

    const applied = await b.run(["resume", "--url-stdin", "--apply-changes", "--json"], { input: published.url });
    expect(applied.code, applied.stderr).toBe(0);
    expect(json<Resumed>(applied).changes_applied).toMatchObject({ mode: "at_base", untracked: ["notes/plan.txt"] });
    const { "deploy.env": secret, ...expected } = tree(a.repo);
    expect(secret).toBeDefined();
    expect(tree(b.repo)).toEqual(expected);
    for (const file of listFilesDeep(b.repo)) expect(readFileSync(file).includes(Buffer.from(githubToken))).toBe(false);
  });

  it("a passphrase link (envelope v2) carries the bundle too: B gives URL and passphrase on stdin and applies it", async () => {
    const { a, b } = pair();
    dirtyA(a);
    const local = json<{ path: string; changes: { path: string } }>(await a.run(["create", "--title", "Retry path", "--with-changes", "--json"], { input: BODY }));
    const passphrase = "correct horse battery";
    const run = await a.run(["publish", local.path, "--with-changes", "--passphrase", "--max-views", "5", "--json"], { input: passphrase });
    expect(run.code, run.stderr).toBe(0);
    const published = json<{ url: string; passphrase: boolean; changes: NonNullable<Resumed["changes"]> }>(run);
    expect(published.passphrase).toBe(true);
    expect(published.changes.untracked.map((u) => u.path)).toEqual(["notes/plan.txt"]);

    // The link alone opens nothing, and spends no view.
    const alone = await b.run(["resume", "--url-stdin"], { input: published.url });
    expect(alone.code).toBe(3);
    expect(alone.stderr).toMatch(/this share link needs a passphrase; no view was spent/);
    expect(alone.stderr).toContain("handoff resume --url-stdin --passphrase");

    const applied = await b.run(["resume", "--url-stdin", "--passphrase", "--apply-changes", "--json"], { input: `${published.url}\n${passphrase}\n` });
    expect(applied.code, applied.stderr).toBe(0);
    expect(json<Resumed & { views_left: number }>(applied)).toMatchObject({ changes_applied: { mode: "at_base", untracked: ["notes/plan.txt"] }, views_left: 4 });
    const { "deploy.env": _secret, ...expected } = tree(a.repo);
    // A's own handoff files live in A's store, outside the checkout; the trees compare as before.
    expect(tree(b.repo)).toEqual(expected);
  });

  it("onto a descendant of the recorded commit: a three-way apply", async () => {
    const { a, b } = pair();
    dirtyA(a);
    const published = await publishWithChanges(a);
    commitFiles(b.repo, { "other.txt": "b's unrelated commit\n" }, "b: other");
    const applied = await b.run(["resume", "--url-stdin", "--apply-changes", "--json"], { input: published.url });
    expect(applied.code, applied.stderr).toBe(0);
    expect(json<Resumed>(applied).changes_applied?.mode).toBe("three_way");
    expect(readFileSync(join(b.repo, "README.md"), "utf8")).toBe("# Uploader\n\nRetries: exponential backoff.\n");
    expect(readFileSync(join(b.repo, "logo.bin"))).toEqual(readFileSync(join(a.repo, "logo.bin")));
  });

  it("a conflicting receiver gets a report and an untouched tree", async () => {
    const { a, b } = pair();
    dirtyA(a);
    const published = await publishWithChanges(a);
    commitFiles(b.repo, { "README.md": "# Uploader\n\nRetries: linear, decided on B.\n" }, "b: retries");
    const before = tree(b.repo);
    const run = await b.run(["resume", "--url-stdin", "--apply-changes", "--json"], { input: published.url });
    expect(run.code).toBe(1);
    const result = json<Resumed>(run);
    expect(result.changes_not_applied?.conflicts).toEqual(["README.md"]);
    expect(result.changes_not_applied?.message).toMatch(/conflict with this checkout in README\.md; nothing was applied$/);
    expect(tree(b.repo)).toEqual(before);
    expect(git(b.repo, "status", "--porcelain")).toBe("");

    // Uncommitted work on the receiver: refused before anything is tried.
    writeFileSync(join(b.repo, "retry.ts"), "export const tries = 4;\n");
    const dirty = await b.run(["resume", "--url-stdin", "--apply-changes"], { input: published.url });
    expect(dirty.code).toBe(1);
    expect(dirty.stderr).toMatch(/--apply-changes: this checkout has uncommitted changes \(retry\.ts\); nothing was applied/);
    expect(readFileSync(join(b.repo, "retry.ts"), "utf8")).toBe("export const tries = 4;\n");
  });
});
