import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateContextReceipt } from "../../shared/kernel/receipt.js";
import { type CliRun, ensureBuilt, runCli, runProgram } from "../helpers/cli.js";
import { preToolUseEvent } from "../helpers/hook-events.js";
import { REFERENCE_UNAVAILABLE, liveReferenceScript, referenceHere } from "../helpers/kernel-reference.js";
import { git } from "./git-repo.js";
import { guardSandbox } from "./guard-sandbox.js";

// `handoff guard` on real Claude Code PreToolUse payloads, in sealed, bounded and advisory
// modes, with manifests activated by kernel's reference runtime and by `handoff context
// --activate`; kernel's own guard script gets the same payloads to show the two agree.

// Where this machine has no reference, each use skips its test, with the reason (kernel-reference.ts).
const kernelManifest = liveReferenceScript;
const referenceGuardScript = () => join(dirname(liveReferenceScript()), "..", "..", "hooks", "scripts", "guard-context.sh");

// Made when the file loads: the case tables below name absolute paths inside it.
const { base, repo, env } = guardSandbox("handoff-guard-", { "secrets/key.pem": "-----PRIVATE-----\n" });

beforeAll(ensureBuilt, 120_000);

afterAll(() => rmSync(base, { recursive: true, force: true }));

function manifest(mode: "sealed" | "bounded" | "advisory"): string {
  const path = join(repo, `${mode}.json`);
  const doc = {
    schema: "kernel.handoff/v1",
    identity: { name: `guard-${mode}`, created: "2026-07-10T21:45:00Z" },
    provenance: { branch: "main", commit: git(repo, "rev-parse", "HEAD"), dirty: false },
    objective: { goal: "Keep the experiment sealed", success_conditions: ["no forbidden reads"] },
    workflow: { phases: [{ name: "run", status: "required" }] },
    context: {
      policy: { mode },
      required: [{ path: "src/a.ts", reason: "the code under test" }],
      forbidden: ["secrets/**"],
      budget: { target_tokens: 1000, max_tokens: 2000 },
    },
    execution: { entry_phase: "run" },
    resume: { prompt: `resume from ${mode}.json` },
  };
  writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
  return `${mode}.json`;
}

/** A PreToolUse event exactly as Claude Code sends it on the hook's stdin. */
const event = (tool_name: string, tool_input: Record<string, unknown>) =>
  preToolUseEvent(tool_name, tool_input, { cwd: repo, transcriptPath: join(base, "home", ".claude", "projects", "demo", "session.jsonl") });

const guard = (payload: string) => runCli(["guard"], { cwd: repo, env, input: payload });

/** Kernel's own guard on the same payload; started like ours (runProgram), so a test can run the two at once. */
function referenceGuard(payload: string): Promise<CliRun> {
  return runProgram("bash", [referenceGuardScript()], { cwd: repo, env, input: payload });
}

function referenceActivate(file: string): void {
  execFileSync("python3", [kernelManifest(), "activate", file], { cwd: repo, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, encoding: "utf8" });
}

/** Arms `file` for a test of our guard: by the reference's activate where it is here (the two tools share the pointer), else by ours. */
async function activateForTest(file: string): Promise<void> {
  if (referenceHere()) referenceActivate(file);
  else expect((await runCli(["context", file, "--activate"], { cwd: repo, env })).code).toBe(0);
}

const pointer = () => join(repo, "_meta", ".active-manifest.json");
const ledger = () => join(repo, "_meta", ".context-ledger");
function clearState(): void {
  rmSync(join(repo, "_meta"), { recursive: true, force: true });
}
function ledgerPaths(): string[] {
  if (!existsSync(ledger())) return [];
  return readFileSync(ledger(), "utf8")
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { path: string }).path);
}

const abs = (path: string) => join(repo, path);

/** Payloads both guards understand (Read, Grep, Glob), with the sealed verdict: 2 blocks, 0 allows. */
const SEALED_CASES: [string, string, Record<string, unknown>, 0 | 2][] = [
  ["Read of a forbidden file", "Read", { file_path: abs("secrets/key.pem") }, 2],
  ["Read of a selected file", "Read", { file_path: abs("src/a.ts") }, 0],
  ["Read of another file", "Read", { file_path: abs("docs/notes.md") }, 0],
  ["Read of a relative forbidden path", "Read", { file_path: "secrets/key.pem" }, 2],
  ["Grep scoped to a safe folder", "Grep", { pattern: "TODO", path: "src", output_mode: "content" }, 0],
  ["Grep scoped to the forbidden folder", "Grep", { pattern: "PRIVATE", path: abs("secrets") }, 2],
  ["Grep without a path (the whole workspace)", "Grep", { pattern: "PRIVATE" }, 2],
  ["Glob inside a safe folder", "Glob", { pattern: "src/**/*.ts" }, 0],
  ["Glob into the forbidden folder", "Glob", { pattern: "secrets/*" }, 2],
];

const BASH_CASES: [string, string, 0 | 2][] = [
  ["cat of a forbidden file", "cat secrets/key.pem | head -5", 2],
  ["a quoted absolute forbidden path", `sed -n 1p "${abs("secrets/key.pem")}"`, 2],
  ["a glob that reaches the forbidden folder", "cat secr*/key.pem", 2],
  ["a recursive grep over the repository", "grep -rn PRIVATE .", 2],
  ["an option value naming a forbidden file", "openssl rsa --in=secrets/key.pem", 2],
  ["ordinary commands", "git status && ls -la src && npm test", 0],
  ["a recursive grep of a safe folder", "grep -rn TODO src docs", 0],
  ["reading a selected file", "cat src/a.ts > /dev/null", 0],
];

describe("sealed mode", () => {
  for (const [activatedBy, activate] of [
    ["handoff context --activate", async (file: string) => expect((await runCli(["context", file, "--activate"], { cwd: repo, env })).code).toBe(0)],
    ["the reference runtime's activate", async (file: string) => referenceActivate(file)],
  ] as const) {
    describe(`activated by ${activatedBy}`, () => {
      // Activated by the reference, every test here needs it: each says so by skipping (liveReferenceScript).
      const byReference = activatedBy === "the reference runtime's activate";
      beforeAll(async () => {
        if (byReference && REFERENCE_UNAVAILABLE) return;
        clearState();
        await activate(manifest("sealed"));
        expect(JSON.parse(readFileSync(pointer(), "utf8"))).toMatchObject({ mode: "sealed", forbidden: ["secrets/**"], allowlist: ["src/a.ts"] });
      });

      it.each(SEALED_CASES)("%s: handoff guard and the reference guard agree", async (_name, tool, input, expected) => {
        if (byReference) liveReferenceScript();
        const payload = event(tool, input);
        const [ours, reference] = await Promise.all([guard(payload), referenceHere() ? referenceGuard(payload) : undefined]);
        expect(ours.code, ours.stderr).toBe(expected);
        if (reference) expect(reference.code, reference.stderr).toBe(expected);
        if (expected === 2) expect(ours.stderr).toMatch(/^BLOCKED by sealed manifest: (.*secrets|pathless Grep)/);
        else expect(ours.stderr).toBe("");
      });

      it.each(BASH_CASES)("Bash, %s", async (_name, command, expected) => {
        if (byReference) liveReferenceScript();
        const run = await guard(event("Bash", { command, description: "run it" }));
        expect(run.code, run.stderr).toBe(expected);
        if (expected === 2) expect(run.stderr).toContain("Manifest: sealed.json");
      });

      it("writes no ledger in sealed mode", () => {
        if (byReference) liveReferenceScript();
        expect(existsSync(ledger())).toBe(false);
      });
    });
  }
});

describe("never more permissive than the reference", () => {
  const GLOBS = [".env", "*.pem", "secrets", "secrets/*", "config/**/prod.*", "docs/?otes.md"];
  const STRICTER = [".env .env", "secrets secrets/a/b.txt", "secrets/* secrets", "config/**/prod.* config/prod.yaml"];
  const PATHS = [".env", "app/.env", "keys/x.pem", "secrets", "secrets/a/b.txt", "config/eu/prod.yaml", "config/prod.yaml", "docs/notes.md", "README.md"];

  it("blocks every Read the reference guard blocks, glob by glob", async () => {
    const disagreements: string[] = [];
    const stricter: string[] = [];
    for (const glob of GLOBS) {
      clearState();
      mkdirSync(join(repo, "_meta"));
      writeFileSync(pointer(), JSON.stringify({ manifest: "m.json", schema: "kernel.handoff/v1", mode: "sealed", forbidden: [glob], allowlist: [], activated: "2026-07-10T21:45:00Z" }));
      // Sealed reads write nothing: every path's two guards run at once, verdicts kept in PATHS order.
      const verdicts = await Promise.all(
        PATHS.map(async (path) => {
          const payload = event("Read", { file_path: abs(path) });
          const [reference, ours] = await Promise.all([referenceGuard(payload), guard(payload)]);
          return { path, reference: reference.code, ours: ours.code };
        }),
      );
      for (const { path, reference, ours } of verdicts) {
        if (reference === 2 && ours !== 2) disagreements.push(`${glob} ${path}: reference blocks, ours ${ours}`);
        if (ours === 2 && reference !== 2) stricter.push(`${glob} ${path}`);
      }
    }
    expect(disagreements).toEqual([]);
    // Where ours is stricter, it is for the reasons docs/agents.md lists: a leading '.' is kept
    // (the reference strips it, so '.env' never matches), a glob covers what is inside it, naming
    // the forbidden folder itself counts, and '**/' also matches no folder at all.
    expect(stricter).toEqual(STRICTER);
  }, 180_000);
});

describe("bounded mode", () => {
  const reads = ["docs/notes.md", "src/a.ts", "secrets/key.pem"];

  it("allows every access and ledgers the ones beyond the manifest, as the reference does", async () => {
    clearState();
    await runCli(["context", manifest("bounded"), "--activate"], { cwd: repo, env });
    for (const path of reads) expect((await guard(event("Read", { file_path: abs(path) }))).code).toBe(0);
    const ours = ledgerPaths();
    expect(ours).toEqual(["docs/notes.md", "secrets/key.pem"]);
    if (!referenceHere()) return;

    clearState();
    referenceActivate(manifest("bounded"));
    // One at a time: the ledger keeps the order of the reads.
    for (const path of reads) expect((await referenceGuard(event("Read", { file_path: abs(path) }))).code).toBe(0);
    expect(ledgerPaths()).toEqual(ours);
  });

  it("ledgers what a Bash command names, and what a Grep scans", async () => {
    clearState();
    await activateForTest(manifest("bounded"));
    expect((await guard(event("Bash", { command: "wc -l docs/notes.md src/a.ts" }))).code).toBe(0);
    expect((await guard(event("Grep", { pattern: "x" }))).code).toBe(0);
    expect(ledgerPaths()).toEqual(["docs/notes.md", "Grep:workspace"]);
    const record = JSON.parse(readFileSync(ledger(), "utf8").split("\n")[0]!) as Record<string, string>;
    expect(Object.keys(record).sort()).toEqual(["path", "reason", "ts"]);
    expect(record.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("deactivate merges the ledger into the receipt and removes both state files", async () => {
    clearState();
    const file = manifest("bounded");
    const compiled = await runCli(["context", file, "--out", "bundle.md", "--receipt", "receipt.json"], { cwd: repo, env });
    expect(compiled.code, compiled.stderr).toBe(0);
    await runCli(["context", file, "--activate"], { cwd: repo, env });
    await guard(event("Read", { file_path: abs("docs/notes.md") }));

    const refused = await runCli(["context", "--deactivate"], { cwd: repo, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no --receipt/);
    expect(existsSync(pointer())).toBe(true);

    const done = await runCli(["context", "--deactivate", "--receipt", "receipt.json", "--json"], { cwd: repo, env });
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ merged: 1 });
    const receipt = JSON.parse(readFileSync(join(repo, "receipt.json"), "utf8")) as { loads_beyond_manifest: { path: string; reason: string }[] };
    expect(receipt.loads_beyond_manifest).toEqual([expect.objectContaining({ path: "docs/notes.md", reason: "unstated (agent must justify in receipt)" })]);
    expect(validateContextReceipt(receipt).ok).toBe(true);
    expect(existsSync(pointer())).toBe(false);
    expect(existsSync(ledger())).toBe(false);
    rmSync(join(repo, "bundle.md"));
    rmSync(join(repo, "receipt.json"));
  });
});

describe("advisory mode", () => {
  it("allows everything and records nothing, whoever activated it", async () => {
    const activators = [() => runCli(["context", manifest("advisory"), "--activate"], { cwd: repo, env }), async () => referenceActivate(manifest("advisory"))];
    for (const activate of referenceHere() ? activators : activators.slice(0, 1)) {
      clearState();
      await activate();
      for (const [, tool, input] of SEALED_CASES) expect((await guard(event(tool, input))).code).toBe(0);
      expect((await guard(event("Bash", { command: "cat secrets/key.pem" }))).code).toBe(0);
      expect(existsSync(ledger())).toBe(false);
    }
  });
});

describe("failing closed", () => {
  it("allows everything when no manifest is active, even an unreadable event", async () => {
    clearState();
    expect((await guard(event("Read", { file_path: abs("secrets/key.pem") }))).code).toBe(0);
    expect((await guard("not json")).code).toBe(0);
  });

  it.each([
    ["not JSON", "{"],
    ["no mode", JSON.stringify({ manifest: "m.json", forbidden: [] })],
    ["an unknown mode", JSON.stringify({ manifest: "m.json", mode: "sealed-ish", forbidden: [] })],
    ["forbidden not a list", JSON.stringify({ manifest: "m.json", mode: "sealed", forbidden: "secrets/**" })],
  ])("blocks when the pointer exists but is unusable: %s", async (_name, text) => {
    clearState();
    mkdirSync(join(repo, "_meta"));
    writeFileSync(pointer(), text);
    const run = await guard(event("Read", { file_path: abs("README.md") }));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/pointer .* is unusable/);
  });

  it("blocks when the pointer cannot be read at all (a folder at its name), as the reference blocks an unreadable pointer", async () => {
    clearState();
    mkdirSync(pointer(), { recursive: true });
    const run = await guard(event("Read", { file_path: abs("README.md") }));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot be read \(it is a folder, not a file\)/);
  });

  it("blocks a bounded read when the ledger cannot be appended (a folder at its name)", async () => {
    clearState();
    await activateForTest(manifest("bounded"));
    mkdirSync(ledger());
    const run = await guard(event("Read", { file_path: abs("docs/notes.md") }));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ledger .* could not be appended \(it is a folder, not a file\)/);
    // What the manifest selected needs no ledger, so it is still allowed.
    expect((await guard(event("Read", { file_path: abs("src/a.ts") }))).code).toBe(0);
  });

  it("blocks an unparseable event while a sealed manifest is active", async () => {
    clearState();
    await activateForTest(manifest("sealed"));
    const run = await guard('{"tool_name": ');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not JSON/);
  });

  it("either tool disarms what the other armed", async () => {
    clearState();
    await runCli(["context", manifest("sealed"), "--activate"], { cwd: repo, env });
    execFileSync("python3", [kernelManifest(), "deactivate"], { cwd: repo, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } });
    expect(existsSync(pointer())).toBe(false);
    referenceActivate(manifest("sealed"));
    const run = await runCli(["context", "--deactivate"], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(pointer())).toBe(false);
    expect((await guard(event("Read", { file_path: abs("secrets/key.pem") }))).code).toBe(0);
  });
});
