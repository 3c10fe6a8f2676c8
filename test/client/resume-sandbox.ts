import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CE_CONTRACT } from "../../shared/ce/contract.js";
import { serializeCeDocument } from "../../shared/ce/serialize.js";
import { type CliRun, runCli } from "../helpers/cli.js";
import { GIT_ENV, tempDir } from "./git-repo.js";

/**
 * Shared set-up of the `handoff resume` tests: a sandbox per test (its own HOME, TMPDIR and
 * HANDOFF_ROOT), handoffs written by the built CLI, and handoff files written directly where a
 * test needs thousands of them.
 */

export interface Sandbox {
  base: string;
  /** HANDOFF_ROOT: the one managed root of this sandbox. */
  root: string;
  /** `<root>/ce-handoff`, where discovery searches. */
  store: string;
  env: Record<string, string>;
}

export function sandbox(): Sandbox {
  const base = tempDir("handoff-resume-");
  const root = join(base, "store");
  const home = join(base, "home");
  mkdirSync(home);
  return { base, root, store: join(root, "ce-handoff"), env: { ...GIT_ENV, HOME: home, TMPDIR: base, HANDOFF_ROOT: root } };
}

export function resume(box: Sandbox, args: string[], cwd: string, input?: string): Promise<CliRun> {
  return runCli(["resume", ...args], { cwd, env: box.env, ...(input === undefined ? {} : { input }) });
}

/** `handoff resume ... --json`, parsed; the exit code rides along. */
export async function resumeJson(box: Sandbox, args: string[], cwd: string, input?: string) {
  const run = await resume(box, [...args, "--json"], cwd, input);
  return { code: run.code, stderr: run.stderr, result: JSON.parse(run.stdout) };
}

/** Writes a handoff with the built CLI in `cwd` and returns its path. */
export async function createHandoff(box: Sandbox, cwd: string, body: string, args: string[] = []): Promise<string> {
  const run = await runCli(["create", "--json", ...args], { cwd, env: box.env, input: body });
  if (run.code !== 0) throw new Error(`handoff create failed (${run.code}): ${run.stderr}`);
  return (JSON.parse(run.stdout) as { path: string }).path;
}

/** A ce-handoff/v1 document as `handoff create` would write it, without running the CLI. */
export function ceText(fields: { title: string; summary?: string; keywords?: string[]; cwd?: string; created_at?: string }, body = "# Notes\n\nObjective: x.\n"): string {
  return serializeCeDocument(
    {
      artifact_contract: CE_CONTRACT,
      created_at: fields.created_at ?? "2026-01-01T00:00:00Z",
      title: fields.title,
      summary: fields.summary ?? `About ${fields.title}.`,
      keywords: fields.keywords ?? [],
      cwd: fields.cwd ?? "/nowhere",
    },
    body,
  );
}

/** A private folder (0700), as the managed store makes them. */
export function privateDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  return path;
}

export function writeFile(path: string, text: string | Uint8Array): string {
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}
