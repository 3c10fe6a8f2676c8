import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { makeRepo, tempDir } from "../client/git-repo.js";
import { type CorpusCase, INVALID_UTF8, buildCorpus } from "./kernel-corpus.js";

/**
 * What the tests need from the two contracts' reference material (`../shared/spec`: the contract
 * texts and kernel's Python reference runtime), kept as facts this repository owns: the
 * reference's verdict and exit code on every case of the conformance corpus, and the contract's
 * routing rules and the sentences the skill quotes. `npm run reference:facts` regenerates them
 * from the reference (scripts/reference-facts.js); the live tests compare them with it whenever
 * it is available. No vitest here: the generator runs this module outside any test.
 */

export const REGENERATE = "npm run reference:facts";
/** Where the reference is when the environment does not say (this project's CI has it beside the clone). */
export const SPEC_ENV = "HANDOFF_SPEC_DIR";
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const KERNEL_FACTS = join(repoRoot, "test", "fixtures", "kernel", "reference-verdicts.json");
export const CE_FACTS = join(repoRoot, "test", "fixtures", "ce", "contract-facts.json");
const DRIVER = fileURLToPath(new URL("./reference-validate.py", import.meta.url));

export type ReferenceLocation = { specDir: string } | { reason: string };

/**
 * The reference, if this machine has it: `$HANDOFF_SPEC_DIR`, else `../shared/spec` beside the
 * clone, plus a python3 that runs. A path set in the environment that holds no reference is an
 * error, not a skip: whoever set it expects the live tests to run.
 */
export function locateReference(env: NodeJS.ProcessEnv = process.env): ReferenceLocation {
  const configured = env[SPEC_ENV];
  const specDir = resolve(configured || join(repoRoot, "..", "shared", "spec"));
  if (!existsSync(join(specDir, "kernel", "reference")) || !existsSync(join(specDir, "ce-handoff-v1.md"))) {
    if (configured) throw new Error(`${SPEC_ENV}=${configured} holds no ce-handoff-v1.md and kernel/reference/: point it at the spec folder, or unset it`);
    return { reason: `no reference: set ${SPEC_ENV} to the contracts' spec folder, or put it at ../shared/spec beside the clone` };
  }
  const python = spawnSync("python3", ["-c", "import sys; sys.exit(0 if sys.version_info >= (3, 8) else 1)"], { encoding: "utf8" });
  if (python.status !== 0)
    return { reason: `python3 (3.8 or newer) does not run here (${python.error?.message ?? python.stderr.trim() ?? `exit ${python.status}`}): kernel's reference runtime needs it` };
  return { specDir };
}

export function referenceScript(specDir: string): string {
  return join(specDir, "kernel", "reference", "orchestration", "manifest", "kernel-manifest");
}

export interface ReferenceVerdict {
  file: string;
  /** 0 valid, 1 invalid, 2 unparseable, as `kernel-manifest validate FILE` exits. */
  exit: number;
  output: string;
}

/** The reference's verdict on each absolute path, in one Python process, resolving manifest paths against `cwd`'s git repository. */
export function runReferenceValidate(script: string, files: readonly string[], cwd: string): ReferenceVerdict[] {
  const run = spawnSync("python3", [DRIVER, script], { cwd, input: files.join("\n") + "\n", encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`the reference driver failed (${run.status ?? run.signal}): ${run.stderr}`);
  const verdicts = run.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ReferenceVerdict);
  if (verdicts.length !== files.length) throw new Error(`the reference driver answered ${verdicts.length} of ${files.length} files: ${run.stderr}`);
  return verdicts;
}

/** A case's identity in the facts: its name and a hash of its text, so an edited case cannot reuse an old verdict. */
export function caseKey(c: { name: string; text: string | Uint8Array }): string {
  return `${createHash("sha256").update(c.text).digest("hex").slice(0, 16)} ${c.name}`;
}

/** The conformance corpus's repository: the files its manifests name, and an uncommitted edit (the CLI's cases are written dirty). */
export function corpusRepo(): string {
  const dir = makeRepo(tempDir("kernel-conformance-"), { "README.md": "# Demo\n", "docs/a.md": "# A\n" });
  writeFileSync(join(dir, "README.md"), "# Demo, edited\n");
  return dir;
}

/** Writes each case to `dir/corpus/case-N.json` and returns the paths. */
export function writeCorpus(dir: string, corpus: readonly { text: string | Uint8Array }[]): string[] {
  mkdirSync(join(dir, "corpus"), { recursive: true });
  return corpus.map((c, i) => {
    const file = join(dir, "corpus", `case-${i}.json`);
    writeFileSync(file, c.text);
    return file;
  });
}

export interface KernelFacts {
  regenerate: string;
  /** `caseKey` -> the reference's exit code (0 valid, 1 invalid, 2 unparseable). */
  verdicts: Record<string, number>;
}

/** The corpus the facts cover: our generator's cases and the one that is not UTF-8 (the manifests the CLI creates differ per run: live only). */
export function factCorpus(): (CorpusCase | { name: string; text: Uint8Array })[] {
  return [...buildCorpus(), { name: "raw: not UTF-8", text: INVALID_UTF8 }];
}

/** Asks the reference at `specDir` for its verdict on every case of the fact corpus. */
export function kernelFactsFrom(specDir: string): KernelFacts {
  const dir = corpusRepo();
  try {
    const corpus = factCorpus();
    const verdicts = runReferenceValidate(referenceScript(specDir), writeCorpus(dir, corpus), dir);
    return { regenerate: REGENERATE, verdicts: Object.fromEntries(corpus.map((c, i) => [caseKey(c), verdicts[i]!.exit])) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface CeFacts {
  regenerate: string;
  /** The bullets under "Route the invocation" in ce-handoff-v1.md. */
  routes: string[];
  /** Sentences of the contract the skill repeats in its words. */
  quotes: string[];
}

/** Sentences of ce-handoff-v1.md that the skill's instructions must carry (test/client/agent-package.test.ts). */
export const CE_QUOTES = [
  "End the creation response with one fenced, copyable command",
  "MUST stop and ask the user to select a candidate. Do not choose one, read a body, or continue the prior work.",
  "MUST stop without acting until the user chooses.",
];

/** The routing rules and quoted sentences, as the contract at `specDir` says them (a quote it lacks is an error: the facts would lie). */
export function ceFactsFrom(specDir: string): CeFacts {
  const contract = readFileSync(join(specDir, "ce-handoff-v1.md"), "utf8");
  const missing = CE_QUOTES.filter((quote) => !contract.includes(quote));
  if (missing.length > 0) throw new Error(`ce-handoff-v1.md no longer says: ${missing.join(" / ")}`);
  const section = contract.slice(contract.indexOf("Route the invocation"), contract.indexOf("\nCreate\n"));
  const routes = section
    .split("\n")
    .filter((line) => line.startsWith("•"))
    .map((line) => line.replace(/^•\s*/, "").trim());
  return { regenerate: REGENERATE, routes, quotes: CE_QUOTES };
}

export function committedKernelFacts(): KernelFacts {
  return JSON.parse(readFileSync(KERNEL_FACTS, "utf8")) as KernelFacts;
}

export function committedCeFacts(): CeFacts {
  return JSON.parse(readFileSync(CE_FACTS, "utf8")) as CeFacts;
}

/** Lines naming each difference between the committed verdicts and the live ones, for a drift message. */
export function verdictDrift(committed: Record<string, number>, live: Record<string, number>): string[] {
  const keys = new Set([...Object.keys(committed), ...Object.keys(live)]);
  return [...keys].filter((key) => committed[key] !== live[key]).map((key) => `${key}: committed ${committed[key] ?? "absent"}, reference ${live[key] ?? "absent"}`);
}
