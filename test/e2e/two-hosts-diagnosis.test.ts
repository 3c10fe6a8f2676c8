import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../scripts/local-server.js";
import { git, tempDir } from "../client/git-repo.js";
import { ensureBuilt } from "../helpers/cli.js";
import { asReferenceEvents, referenceDivergence } from "../helpers/kernel-reference.js";
import { type Host, commitFiles, json, makeHost, makeSharedRepo, startServer } from "./hosts.js";

// The receiving host's diagnosis, end to end: two HOMEs, two clones of one upstream, one real
// server. A commits, pushes and publishes; B is in each of the states a receiver is found in,
// and must hear which one it is and the command that resolves it (docs/resume.md has the table).

interface Drift {
  event: string;
  status: string;
  severity: string;
  message: string;
  case?: string;
  fix?: string;
  path?: string;
  expected?: unknown;
  actual?: unknown;
}

interface Orientation {
  drift: Drift[];
  hard_divergence: boolean;
  next_actions: string[];
  body: string;
}

const BODY = `# Retry path

## Objective
Make the uploader retry on 503.

## Current state
retry.ts has the loop; the backoff has no test yet.

## Next steps
- write the backoff test
`;

let base: string;
let server: LocalServer | undefined;
let pairs = 0;

beforeAll(async () => {
  base = tempDir("handoff-e2e-diagnosis-");
  await ensureBuilt();
  server = await startServer(join(base, "server-state"));
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** A fresh upstream with clones for A and B: each case starts from the same history. */
function pair(): { a: Host; b: Host } {
  const dir = join(base, `pair-${++pairs}`);
  const repos = makeSharedRepo(dir, ["a", "b"], { "README.md": "# Uploader\n", "retry.ts": "export const tries = 3;\n" });
  return { a: makeHost(dir, "a", repos.a!, { HANDOFF_SERVER: server!.url }), b: makeHost(dir, "b", repos.b!) };
}

async function publish(host: Host, body = BODY): Promise<string> {
  const run = await host.run(["create", "--title", "Retry path", "--publish", "--json"], { input: body });
  expect(run.code, run.stderr).toBe(0);
  return json<{ url: string }>(run).url;
}

/** B resumes the link twice (JSON, then text, so each link allows two views): both with the same exit code. */
async function resumeOnB(b: Host, url: string): Promise<{ code: number | null; result: Orientation; text: string }> {
  const machine = await b.run(["resume", "--url-stdin", "--json"], { input: url });
  const human = await b.run(["resume", "--url-stdin"], { input: url });
  expect(human.code, human.stderr).toBe(machine.code);
  return { code: machine.code, result: json<Orientation>(machine), text: human.stdout };
}

const commitItem = (result: Orientation) => result.drift.find((d) => d.event.startsWith("commit_"));

describe("the receiver's checkout, diagnosed with its fix (ce-handoff)", () => {
  it("behind after a fetch: commit_diverged/behind, a warning with the fast-forward, exit 0", async () => {
    const { a, b } = pair();
    const head = commitFiles(a.repo, { "retry.ts": "export const tries = 5;\n" }, "a: more tries");
    git(a.repo, "push", "-q", "origin", "main");
    const url = await publish(a);
    git(b.repo, "fetch", "-q");
    const { code, result, text } = await resumeOnB(b, url);
    expect(code).toBe(0);
    const fix = `git merge --ff-only ${head.slice(0, 12)}`;
    expect(commitItem(result)).toMatchObject({ event: "commit_diverged", severity: "warn", case: "behind", fix });
    expect(commitItem(result)?.message).toMatch(/^behind by 1 commit: /);
    expect(result.next_actions[0]).toBe(`fast-forward to the recorded commit first: ${fix}`);
    expect(text).toContain(fix);
    expect(text).not.toContain("HARD DIVERGENCE");
  });

  it("not fetched: commit_diverged/not_fetched names the remote to fetch, exit 0", async () => {
    const { a, b } = pair();
    commitFiles(a.repo, { "retry.ts": "export const tries = 5;\n" }, "a: more tries");
    git(a.repo, "push", "-q", "origin", "main");
    const url = await publish(a);
    const { code, result, text } = await resumeOnB(b, url);
    expect(code).toBe(0);
    expect(commitItem(result)).toMatchObject({ event: "commit_diverged", severity: "warn", case: "not_fetched", fix: "git fetch origin" });
    expect(commitItem(result)?.message).toMatch(/^not fetched: /);
    expect(result.next_actions[0]).toBe("fetch the recorded commit first, then resume again: git fetch origin");
    expect(text).toContain("git fetch origin");
  });

  it("on a branch that exists only on the remote: the git switch to run, exit 0", async () => {
    const { a, b } = pair();
    git(a.repo, "switch", "-q", "-c", "feature/retry");
    commitFiles(a.repo, { "retry.ts": "export const tries = 5;\n" }, "a: more tries");
    git(a.repo, "push", "-q", "-u", "origin", "feature/retry");
    const url = await publish(a);
    git(b.repo, "fetch", "-q");
    const { code, result, text } = await resumeOnB(b, url);
    expect(code).toBe(0);
    const fix = "git switch feature/retry";
    expect(result.drift[0]).toMatchObject({ event: "branch_diverged", severity: "warn", case: "remote_branch", fix, expected: "feature/retry", actual: "main" });
    expect(result.drift[0]!.message).toContain("exists only on remote 'origin'");
    expect(commitItem(result)).toMatchObject({ event: "commit_diverged", severity: "warn", case: "remote_branch", fix });
    expect(result.next_actions.filter((action) => action.includes(fix))).toHaveLength(1);
    expect(text).toContain(fix);
  });

  it("truly diverged: hard, no command that could be wrong, exit 1", async () => {
    const { a, b } = pair();
    commitFiles(a.repo, { "retry.ts": "export const tries = 5;\n" }, "a: more tries");
    git(a.repo, "push", "-q", "origin", "main");
    const url = await publish(a);
    git(b.repo, "fetch", "-q");
    commitFiles(b.repo, { "notes.txt": "b's own line of work\n" }, "b: notes");
    const { code, result, text } = await resumeOnB(b, url);
    expect(code).toBe(1);
    expect(commitItem(result)).toMatchObject({ event: "commit_diverged", severity: "hard", case: "diverged" });
    expect(commitItem(result)?.fix).toBeUndefined();
    expect(commitItem(result)?.message).toMatch(/^diverged: /);
    expect(result.hard_divergence).toBe(true);
    expect(text).toContain("HARD DIVERGENCE: this checkout is not the state the handoff describes.");
  });

  it("at another absolute path: the sender's machine-local paths are mapped into this checkout and checked there", async () => {
    const { a, b } = pair();
    const url = await publish(a, `${BODY}\nMachine-local: the loop is in ${a.repo}/retry.ts; the log was ${a.repo}/retry.log (not committed).\n`);
    const { code, result, text } = await resumeOnB(b, url);
    expect(code).toBe(0);
    const remap = result.drift.find((d) => d.event === "path_remapped");
    expect(remap).toMatchObject({ severity: "info", expected: a.repo, actual: b.repo });
    expect(result.drift.filter((d) => d.event === "path_missing")).toEqual([expect.objectContaining({ path: join(b.repo, "retry.log"), expected: `${a.repo}/retry.log` })]);
    expect(result.drift.find((d) => d.event === "worktree_missing")).toBeUndefined();
    expect(text).toContain(`${a.repo}/retry.ts is read here as ${join(b.repo, "retry.ts")}`);
  });
});

describe("the same cases for a kernel manifest: kernel's event names and severities, the case and fix added", () => {
  const PARTIAL = {
    objective: { goal: "Make the uploader retry on 503", success_conditions: ["retry test green"] },
    workflow: {
      phases: [
        { name: "recon", status: "inherited", evidence: "read retry.ts" },
        { name: "build", status: "required" },
      ],
      invalidation_rules: [{ when: { event: "commit_diverged" }, invalidates: ["recon"] }],
    },
    execution: { entry_phase: "build" },
  };

  async function publishKernel(a: Host): Promise<string> {
    const created = await a.run(["create", "--format", "kernel", "--title", "Retry path", "--json"], { input: JSON.stringify(PARTIAL) });
    expect(created.code, created.stderr).toBe(0);
    const run = await a.run(["publish", json<{ path: string }>(created).path, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    return json<{ url: string }>(run).url;
  }

  /** What kernel's reference `divergence` says about the same manifest in B's checkout. */
  function reference(b: Host, body: string) {
    const file = join(base, `manifest-${++pairs}.json`);
    writeFileSync(file, body);
    return referenceDivergence(file, b.repo, { ...process.env, ...b.env });
  }

  for (const [name, fetch, diagnosis, fix] of [
    ["behind after a fetch", true, "behind", (head: string) => `git merge --ff-only ${head.slice(0, 12)}`],
    ["not fetched", false, "not_fetched", () => "git fetch origin"],
  ] as const) {
    it(`${name}: commit_diverged stays hard (exit 1) as the reference has it, and says ${diagnosis} with its command`, async () => {
      const { a, b } = pair();
      const head = commitFiles(a.repo, { "retry.ts": "export const tries = 5;\n" }, "a: more tries");
      git(a.repo, "push", "-q", "origin", "main");
      const url = await publishKernel(a);
      if (fetch) git(b.repo, "fetch", "-q");
      const { code, result, text } = await resumeOnB(b, url);
      expect(code).toBe(1);
      expect(commitItem(result)).toMatchObject({ event: "commit_diverged", severity: "hard", case: diagnosis, fix: fix(head) });
      expect(text).toContain("the drift below names the case and the command that resolves it");
      const theirs = reference(b, result.body);
      expect(asReferenceEvents(result.drift)).toEqual(theirs.events);
      expect(theirs.exit === 0 ? 0 : 1).toBe(code);
    });
  }
});
