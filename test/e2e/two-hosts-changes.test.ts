import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "../client/git-repo.js";
import { type Host, commitFiles, json, listFilesDeep, hostPairs, shellWords } from "./hosts.js";

// Uncommitted work that travels: host A publishes --with-changes (a modified tracked file, a new
// untracked file, a binary file, a file holding a secret); host B applies it on request. The binary
// file is random bytes the secret scan cannot read, so A sends it with --allow-unscanned.

const githubToken = "ghp_" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5";
const BODY = "# Retry path\n\n## Objective\nMake the uploader retry on 503.\n\n## Next steps\n- write the backoff test\n";

interface Resumed {
  changes?: { tracked: { path: string; binary: boolean }[]; untracked: { path: string; bytes: number }[]; left_out: { path: string; reason: string }[] };
  apply_command?: string;
  preview_command?: string;
  apply_where?: string;
  views_left?: number | null;
  local_copy?: { path: string; keep_until: string; view_spent: boolean };
  drift?: { event: string; case?: string; fix?: string }[];
  changes_preview?: { ready: boolean; files: { path: string; change: string }[]; blocked?: { message: string; hint?: string } };
  changes_applied?: { mode: string; tracked: string[]; untracked: string[] };
  changes_not_applied?: { message: string; conflicts?: string[] };
}

const hosts = hostPairs("handoff-e2e-changes-");

/** A fresh upstream with clones for A and B: each case starts from the same history. */
const pair = () => hosts.pair({ "README.md": "# Uploader\n\nRetries: none.\n", "retry.ts": "export const tries = 3;\n", "logo.bin": "\u0000\u0001seed\u0000" });

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
  const run = await a.run(["create", "--title", "Retry path", "--publish", "--with-changes", "--allow-unscanned", "--max-views", "5", "--json"], { input: BODY });
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
    const local = json<{ changes: { path: string }; path: string }>(await a.run(["create", "--title", "Local copy", "--with-changes", "--allow-unscanned", "--json"], { input: BODY }));
    expect(statSync(local.changes.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(local.path, "utf8")).toContain(`changes: "${local.changes.path.split("/").pop()}"`);
    expect(readFileSync(local.changes.path).includes(Buffer.from(githubToken))).toBe(false);

    // Resuming without asking applies nothing, and says what the bundle holds.
    const look = await b.run(["resume", "--url-stdin"], { input: published.url });
    expect(look.code, look.stderr).toBe(0);
    expect(look.stdout).toMatch(
      /^Changes bundle: 3 files, [^,]+, 1 left out by the sender, captured at [0-9a-f]{12}; not applied\. Preview it with: handoff resume --url-stdin --apply-changes --dry-run; apply it with: handoff resume --url-stdin --apply-changes \(/m,
    );
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
    const local = json<{ path: string; changes: { path: string } }>(await a.run(["create", "--title", "Retry path", "--with-changes", "--allow-unscanned", "--json"], { input: BODY }));
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

    // show takes the same two lines and prints the document itself, not the upgrade notice.
    const shown = await b.run(["show", "--url-stdin", "--passphrase"], { input: `${published.url}\n${passphrase}` });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(readFileSync(local.path, "utf8"));

    const applied = await b.run(["resume", "--url-stdin", "--passphrase", "--apply-changes", "--json"], { input: `${published.url}\n${passphrase}\n` });
    expect(applied.code, applied.stderr).toBe(0);
    expect(json<Resumed & { views_left: number }>(applied)).toMatchObject({ changes_applied: { mode: "at_base", untracked: ["notes/plan.txt"] }, views_left: 3 });
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

describe("the receiver follows the printed fix, and the whole flow spends one view", () => {
  /**
   * A's work on top of a commit B does not have checked out yet, published --with-changes on a
   * two-view link. `prepare` sets B up for the case.
   */
  async function drifted(prepare: (a: Host, b: Host) => void, branch?: string) {
    const { a, b } = pair();
    if (branch) git(a.repo, "switch", "-q", "-c", branch);
    commitFiles(a.repo, { "retry.ts": "export const tries = 5;\n" }, "a: more tries");
    git(a.repo, "push", "-q", "origin", branch ?? "main");
    dirtyA(a);
    const run = await a.run(["create", "--title", "Retry path", "--publish", "--with-changes", "--allow-unscanned", "--max-views", "2", "--json"], { input: BODY });
    expect(run.code, run.stderr).toBe(0);
    const { url } = json<{ url: string }>(run);
    prepare(a, b);
    return { a, b, url };
  }

  /** Runs a command the CLI printed, exactly as printed (a share link's URL on stdin). */
  async function runPrinted(host: Host, command: string, url: string) {
    const [program, ...args] = shellWords(command);
    if (program === "git") return { code: 0, stdout: git(host.repo, ...args), stderr: "" };
    expect(program).toBe("handoff");
    return host.run([...args, "--json"], { input: url });
  }

  const fetched = (_a: Host, b: Host): void => {
    git(b.repo, "fetch", "-q");
  };
  const branched = (_a: Host, b: Host): void => {
    git(b.repo, "fetch", "-q");
    git(b.repo, "branch", "-q", "feature", "origin/feature");
  };
  const cases: [string, string[], (a: Host, b: Host) => void, string | undefined][] = [
    ["behind (fetched, not fast-forwarded)", ["behind"], fetched, undefined],
    ["not fetched", ["not_fetched", "behind"], () => undefined, undefined],
    ["on another branch", ["other_branch"], branched, "feature"],
  ];

  it.each(cases)("B %s", async (_name, steps, prepare, branch) => {
    const { a, b, url } = await drifted(prepare, branch);
    const first = json<Resumed>(await b.run(["resume", "--url-stdin", "--json"], { input: url }));
    expect(first).toMatchObject({ views_left: 1, local_copy: { view_spent: true }, apply_command: "handoff resume --url-stdin --apply-changes" });
    expect(statSync(first.local_copy!.path).mode & 0o777).toBe(0o600);

    // The preview first: every file listed, and what to run before it would apply.
    const preview = json<Resumed>(await runPrinted(b, first.preview_command!, url));
    expect(preview.local_copy?.view_spent).toBe(false);
    expect(preview.changes_preview?.ready).toBe(false);
    expect(preview.changes_preview?.files.map((f) => f.path).sort()).toEqual(["README.md", "logo.bin", "notes/plan.txt"]);

    // Each case has one fix, the same in the drift and in the apply's refusal; after it, resume again.
    let current = first;
    for (const expected of steps) {
      const item = current.drift?.find((d) => d.event === "commit_diverged");
      expect(item?.case).toBe(expected);
      const refused = json<Resumed & { changes_not_applied?: { hint?: string } }>(await runPrinted(b, current.apply_command!, url));
      expect(refused.changes_not_applied?.hint).toContain(`run ${item?.fix}, then apply again: handoff resume --url-stdin --apply-changes`);
      await runPrinted(b, item!.fix!, url);
      current = json<Resumed>(await b.run(["resume", "--url-stdin", "--json"], { input: url }));
      expect(current.local_copy?.view_spent).toBe(false);
    }
    expect(current.drift?.find((d) => d.event === "commit_diverged")).toBeUndefined();

    const applied = json<Resumed>(await runPrinted(b, current.apply_command!, url));
    expect(applied.changes_applied?.mode).toBe("at_base");
    const { "deploy.env": _secret, ...expected } = tree(a.repo);
    expect(tree(b.repo)).toEqual(expected);

    // One view of the two spent, the copy said so; rm removes it, and the next read is the second view.
    const peek = json<{ views_left: number; local_copy?: { path: string } }>(await b.run(["resume", "--url-stdin", "--peek", "--json"], { input: url }));
    expect(peek).toMatchObject({ views_left: 1, local_copy: { path: first.local_copy!.path } });
    expect((await b.run(["rm", first.local_copy!.path])).code).toBe(0);
    const second = json<Resumed>(await b.run(["resume", "--url-stdin", "--json"], { input: url }));
    expect(second).toMatchObject({ views_left: 0, local_copy: { view_spent: true } });
  });

  it("outside the handoff's repository the apply command is not offered", async () => {
    const { b, url } = await drifted(fetched);
    expect(json<Resumed>(await b.run(["resume", "--url-stdin", "--json"], { input: url })).apply_command).toBeDefined();
    const outside = hosts.scratch("outside");
    mkdirSync(outside);
    const run = await b.run(["resume", "--url-stdin", "--json"], { input: url, cwd: outside });
    const result = json<Resumed>(run);
    expect(result.apply_command).toBeUndefined();
    expect(result.preview_command).toBeUndefined();
    expect(result.apply_where).toMatch(/^in a checkout of .*: its changes apply only there$/);
    expect(result.local_copy?.view_spent).toBe(false);
  });
});
