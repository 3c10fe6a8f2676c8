import { chownSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCeDocument } from "../../shared/ce/document.js";
import { managedRetention } from "../../client/ops/create/create.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { listFiles, normalize } from "./cli-helpers.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

beforeAll(ensureBuilt);

const BODY = "# Auth refactor\n\nToken refresh is half done. Retries are next.\n\n## State\n- src/auth/refresh.ts compiles\n";

/** A sandbox per test: its own HOME, TMPDIR and managed root. */
function sandbox() {
  const base = tempDir("handoff-cli-");
  const root = join(base, "store");
  const home = join(base, "home");
  mkdirSync(home);
  const env = { ...GIT_ENV, HOME: home, TMPDIR: base, HANDOFF_ROOT: root };
  return { base, root, env, placeholders: { [base]: "<TMP>" } };
}

describe("handoff create (golden)", () => {
  it("writes a handoff from a repo: summary, path, retention, warnings, and the fenced command last", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"), { "README.md": "# App\n", "src/auth/refresh.ts": "export {};\n" });
    writeFileSync(join(repo, "body.md"), BODY);
    const run = await runCli(["create", "finish", "the", "retry", "path", "--body-file", "body.md", "--title", 'Auth: "refresh" #1 ---', "--keyword", "auth", "--keyword", "tokens"], {
      cwd: repo,
      env: box.env,
    });
    expect(normalize(run, box.placeholders)).toMatchSnapshot();
    const path = join(box.root, "ce-handoff", `app-${git(repo, "rev-parse", "HEAD").slice(0, 12)}`, "auth-refresh-1.md");
    expect(run.stdout).toBe(`\`\`\`\nhandoff resume '${path}'\n\`\`\`\n`);
    const text = readFileSync(path, "utf8");
    expect(normalize({ code: 0, stdout: text, stderr: "" }, box.placeholders).stdout).toMatchSnapshot();
    expect(parseCeDocument(text).issues).toEqual([]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(git(repo, "status", "--porcelain")).toBe("?? body.md");
  });

  it("a bare invocation reads stdin; outside git it uses the general namespace and says so", async () => {
    const box = sandbox();
    const cwd = join(box.base, "plain");
    mkdirSync(cwd);
    const run = await runCli([], { cwd, env: box.env, input: BODY });
    expect(normalize(run, box.placeholders)).toMatchSnapshot();
    expect(listFiles(box.root)).toEqual(["ce-handoff/general/auth-refactor.md"]);
  });

  it("--json prints the result object on stdout", async () => {
    const box = sandbox();
    const cwd = join(box.base, "plain");
    mkdirSync(cwd);
    const run = await runCli(["create", "--json", "--summary", "One line.", "--local"], { cwd, env: box.env, input: BODY });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(Object.keys(result)).toEqual(["path", "format", "metadata", "warnings", "resume_command", "destination", "retention", "notes", "redaction"]);
    expect(result).toMatchObject({
      path: join(box.root, "ce-handoff", "general", "auth-refactor.md"),
      format: "ce-handoff/v1",
      metadata: { artifact_contract: "ce-handoff/v1", title: "Auth refactor", summary: "One line.", keywords: [], cwd },
      warnings: [{ code: "no_git" }],
      resume_command: `handoff resume '${join(box.root, "ce-handoff", "general", "auth-refactor.md")}'`,
    });
  });

  it.each([
    ["an empty body", ["create"], "", 1],
    ["a whitespace-only body", ["create"], "  \n\t\n", 1],
    ["an unknown flag", ["create", "--bogus"], BODY, 2],
    ["an empty --title", ["create", "--title", " "], BODY, 2],
    ["an unknown --format", ["create", "--format", "yaml"], BODY, 2],
    ["a missing --body-file", ["create", "--body-file", "nope.md"], "", 3],
  ])("refuses %s", async (_name, args, input, code) => {
    const box = sandbox();
    const run = await runCli(args, { cwd: box.base, env: box.env, input });
    expect(normalize(run, box.placeholders)).toMatchSnapshot();
    expect(run.code).toBe(code);
    expect(statSync(box.root, { throwIfNoEntry: false })?.isDirectory() ? listFiles(box.root) : []).toEqual([]);
  });

  it.each([
    ["a symlink", (root: string, base: string) => symlinkSync(base, root)],
    [
      "owned by another user",
      (root: string) => {
        mkdirSync(root, { mode: 0o700 });
        chownSync(root, 65534, 65534);
      },
    ],
  ])("refuses a HANDOFF_ROOT that is %s, exit 3", async (_name, plant) => {
    const box = sandbox();
    plant(box.root, box.base);
    const run = await runCli(["create"], { cwd: box.base, env: box.env, input: BODY });
    expect(normalize(run, box.placeholders)).toMatchSnapshot();
  });
});

describe("--to", () => {
  it("writes into an existing folder, no managed copy", async () => {
    const box = sandbox();
    const out = join(box.base, "out");
    mkdirSync(out);
    const run = await runCli(["create", "--to", out], { cwd: box.base, env: box.env, input: BODY });
    expect(normalize(run, box.placeholders)).toMatchSnapshot();
    expect(listFiles(out)).toEqual(["auth-refactor.md"]);
    expect(statSync(box.root, { throwIfNoEntry: false })).toBeUndefined();
  });

  it("never overwrites an existing file: takes the next free suffix and says so", async () => {
    const box = sandbox();
    const target = join(box.base, "notes.md");
    writeFileSync(target, "keep me");
    const run = await runCli(["create", "--to", "notes.md", "--json"], { cwd: box.base, env: box.env, input: BODY });
    expect(JSON.parse(run.stdout).path).toBe(join(box.base, "notes-2.md"));
    expect(JSON.parse(run.stdout).warnings[0].code).toBe("name_taken");
    expect(readFileSync(target, "utf8")).toBe("keep me");
  });

  it("fails clearly when the folder does not exist", async () => {
    const box = sandbox();
    const run = await runCli(["create", "--to", "missing/dir/x.md"], { cwd: box.base, env: box.env, input: BODY });
    expect(normalize(run, box.placeholders)).toMatchSnapshot();
  });
});

describe("git edge cases through the CLI", () => {
  it("detached HEAD: no branch recorded, a warning", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"));
    git(repo, "checkout", "-q", "--detach");
    const run = await runCli(["create", "--json"], { cwd: repo, env: box.env, input: BODY });
    const result = JSON.parse(run.stdout);
    expect(result.metadata.branch).toBeUndefined();
    expect(result.metadata.head).toBe(git(repo, "rev-parse", "HEAD"));
    expect(result.warnings.map((w: { code: string }) => w.code)).toContain("detached_head");
  });

  it("linked worktree: same namespace folder, worktree_path set", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"));
    const wt = join(box.base, "app-feature");
    git(repo, "worktree", "add", "-q", "-b", "feature", wt);
    const main = JSON.parse((await runCli(["create", "--json", "--title", "From main"], { cwd: repo, env: box.env, input: BODY })).stdout);
    const linked = JSON.parse((await runCli(["create", "--json", "--title", "From worktree"], { cwd: wt, env: box.env, input: BODY })).stdout);
    const namespace = `app-${git(repo, "rev-parse", "HEAD").slice(0, 12)}`;
    expect(listFiles(box.root)).toEqual([`ce-handoff/${namespace}/from-main.md`, `ce-handoff/${namespace}/from-worktree.md`]);
    expect(main.metadata.worktree_path).toBeUndefined();
    expect(linked.metadata).toMatchObject({ worktree_path: wt, branch: "feature", cwd: wt });
  });

  it("credentials in the remote URL are never written anywhere", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"));
    git(repo, "remote", "add", "origin", "https://deploy:ghp_TOPSECRET1@example.invalid/acme/app.git?private_token=TOPSECRET2");
    const run = await runCli(["create", "--json"], { cwd: repo, env: box.env, input: BODY });
    expect(run.code).toBe(0);
    const written = listFiles(box.root)
      .map((f) => readFileSync(join(box.root, f), "utf8"))
      .join("\n");
    for (const text of [written, run.stdout, run.stderr]) {
      expect(text).not.toContain("TOPSECRET");
      expect(text).not.toContain("deploy");
    }
    expect(JSON.parse(run.stdout).metadata.repository).toBe("https://example.invalid/acme/app.git");
  });
});

describe("concurrency", () => {
  it("50 concurrent creates with the same title give 50 distinct complete files", async () => {
    const box = sandbox();
    const cwd = join(box.base, "plain");
    mkdirSync(cwd);
    const runs = await Promise.all(Array.from({ length: 50 }, (_, i) => runCli(["create", "--title", "Same title", "--json"], { cwd, env: box.env, input: `${BODY}\nrun ${i}\n` })));
    expect(runs.map((r) => r.code)).toEqual(Array(50).fill(0));
    const paths = runs.map((r) => JSON.parse(r.stdout).path as string);
    expect(new Set(paths).size).toBe(50);
    const names = listFiles(join(box.root, "ce-handoff", "general"));
    expect(names).toEqual(["same-title.md", ...Array.from({ length: 49 }, (_, i) => `same-title-${i + 2}.md`)].sort());
    const bodies = new Set(
      paths.map((p) => {
        expect(lstatSync(p).isFile()).toBe(true);
        const doc = parseCeDocument(readFileSync(p, "utf8"));
        expect(doc.issues).toEqual([]);
        return doc.body;
      }),
    );
    expect(bodies.size).toBe(50);
  });
});

describe("managedRetention", () => {
  it.each([
    ["/tmp/compound-engineering-1000", {}, "a temporary folder: the OS may delete it"],
    ["/var/folders/x/compound-engineering-501", { TMPDIR: "/var/folders/x/" }, "a temporary folder: the OS may delete it"],
    ["/home/dev/handoffs", { TMPDIR: "/tmp" }, "nothing here deletes it, but it is on this machine only"],
    ["/tmpfoo/store", {}, "nothing here deletes it"],
  ])("%s", (root, env, says) => {
    expect(managedRetention(root, env)).toContain(root);
    expect(managedRetention(root, env)).toContain(says);
  });
});
