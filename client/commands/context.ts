import { lstat, open, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import { type Bundle, compileContext } from "../../shared/context/compile.js";
import { buildReceipt, type ContextReceipt } from "../../shared/context/receipt.js";
import { renderBundle } from "../../shared/context/render.js";
import { estimateTokens } from "../../shared/context/selector.js";
import { EXIT, HandoffError } from "../../shared/errors.js";
import { matchGlob } from "../../shared/glob.js";
import { validateContextReceipt } from "../../shared/kernel/receipt.js";
import { parseCommandArgs } from "../args.js";
import { findRepositoryRoot, projectInstructionsTokens, selectorReader } from "../context-io.js";
import type { Io } from "../io.js";
import { readManifestFile, validatedManifest } from "./render.js";
import { safeForTerminal, safeLineForTerminal, stringifyForTerminal } from "../../shared/terminal-safe.js";

export const help = `Usage: handoff context MANIFEST [--out F] [--receipt F] [--repo DIR] [--json]
       handoff context MANIFEST --activate [--json]
       handoff context --deactivate [--receipt F] [--json]

Compile the context a kernel.handoff/v1 manifest asks for into one Markdown bundle: its
context.required selectors, then context.optional, each resolved inside the repository
({path}, {path, lines: "A-B"}, {path, heading: "## X"}, {path, grep, context: N},
{git_diff: "a..b"}). Tokens are estimated as chars/4 and counted as kernel's reference counts
them: the manifest, the project instructions (CLAUDE.md, .claude/CLAUDE.md, AGENTS.md) and the
selected artifacts; the budget status is within_budget, target_exceeded or maximum_exceeded.
Paths matching context.forbidden are never opened; paths leaving the repository (also through
symlinks) are refused. Read-only.

The repository is the git checkout the manifest is in (else the one the current folder is in).

--activate arms the context guard ('handoff guard', a PreToolUse hook) for this repository:
it writes _meta/.active-manifest.json with the manifest's policy mode, forbidden globs and
selector paths, the same file kernel's 'kernel-manifest activate' writes. --deactivate merges
_meta/.context-ledger (bounded mode's record of reads beyond the manifest) into --receipt F's
loads_beyond_manifest, then removes both files. With a ledger and no --receipt it refuses, and
the guard stays active.

Options:
  --out F       Write the bundle to F (mode 0600) instead of stdout. F must not exist yet.
  --receipt F   Also write a kernel.context-receipt/v1 to F (mode 0600; must not exist yet).
  --repo DIR    Resolve selectors inside DIR instead.
  --json        Print {manifest, bundle: {pieces, total_estimated_tokens}, receipt}.

Exit codes: 0 compiled (also when optional pieces are missing), 1 invalid manifest or a
required selector missing or invalid, 2 usage error or an output file exists, 3 unreadable
manifest, failed write, or maximum_exceeded (bundle and receipt are still written, as kernel's
reference does).
`;

/** Outcomes of a required selector that mean the manifest's context cannot be honoured. */
export interface UnmetRequirement {
  selector: string;
  why: string;
}

/**
 * The required selectors that did not resolve (kernel's reference: anything but "resolved").
 * Empty means the compile honoured the manifest (optional pieces may still be missing).
 */
export function unmetRequired(bundle: Bundle): UnmetRequirement[] {
  return bundle.pieces
    .filter((piece) => piece.list === "required" && piece.outcome !== "resolved")
    .map((piece) => ({ selector: piece.selector, why: `${piece.outcome}${piece.note ? `: ${piece.note}` : ""}` }));
}

export interface CompiledContext {
  root: string;
  bundle: Bundle;
  bundleText: string;
  receipt: ContextReceipt;
}

/** Reads, validates and compiles a manifest's context; writes nothing (the command and the MCP server share it). */
export async function compileManifest(source: string, options: { cwd: string; env: NodeJS.ProcessEnv; repo?: string }): Promise<CompiledContext> {
  const text = await readManifestFile(source, { cwd: options.cwd });
  const manifest = validatedManifest(source, text);
  const root = await findRepositoryRoot({ manifestPath: source, cwd: options.cwd, env: options.env, ...(options.repo === undefined ? {} : { repo: options.repo }) });
  const forbidden = manifest.context.forbidden ?? [];
  // A forbidden folder glob covers what is inside it: the guard errs toward not reading.
  const isForbidden = (glob: string, path: string) => matchGlob(glob, path, { matchParents: true });
  const reader = selectorReader({ root, forbidden, env: options.env, isForbidden: (path) => forbidden.some((glob) => isForbidden(glob, path)) });
  const bundle = await compileContext(manifest, reader, isForbidden);
  const projectTokens = projectInstructionsTokens(root);
  const bundleText = renderBundle(bundle, { manifest_tokens: estimateTokens(text.replace(/\r\n?/g, "\n")), project_instructions_tokens: projectTokens });
  const receipt = await buildReceipt({ manifestPath: source, manifestText: text, bundle, bundleText, projectInstructionsTokens: projectTokens, created: new Date().toISOString() });
  const check = validateContextReceipt(receipt);
  if (!check.ok) {
    throw new HandoffError("internal", `the receipt does not validate: ${check.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, {
      hint: "this is a bug; report it with the manifest",
    });
  }
  return { root, bundle, bundleText, receipt };
}

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("context", args, {
    out: { type: "string" },
    receipt: { type: "string" },
    repo: { type: "string" },
    activate: { type: "boolean" },
    deactivate: { type: "boolean" },
  });
  if (values.activate || values.deactivate) return switchGuard(values, positionals, io);
  if (positionals.length !== 1) {
    throw new HandoffError("usage", positionals.length === 0 ? "handoff context: which manifest? pass MANIFEST.json" : "handoff context takes one MANIFEST", {
      hint: "run 'handoff context --help'",
    });
  }
  const source = positionals[0]!;
  const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
  const receiptPath = values.receipt === undefined ? undefined : resolve(io.cwd, values.receipt);
  if (out !== undefined && out === receiptPath) {
    throw new HandoffError("usage", "--out and --receipt name the same file", { hint: "give the receipt its own file" });
  }
  // Refuse early, before any work; the writes themselves are exclusive too.
  await refuseExisting("--out", out);
  await refuseExisting("--receipt", receiptPath);

  const { root, bundle, bundleText, receipt } = await compileManifest(source, { cwd: io.cwd, env: io.env, ...(values.repo === undefined ? {} : { repo: values.repo }) });

  if (out !== undefined) await writeExclusive("--out", out, bundleText);
  if (receiptPath !== undefined) {
    await writeExclusive("--receipt", receiptPath, `${JSON.stringify(receipt, null, 2)}\n`).catch(async (error: unknown) => {
      // Both files or neither: a bundle without its receipt would look like a finished run.
      if (out !== undefined) await unlink(out).catch(() => undefined);
      throw error;
    });
  }
  if (values.json) {
    const { pieces, total_estimated_tokens } = bundle;
    io.out(stringifyForTerminal({ manifest: source, bundle: { pieces, total_estimated_tokens }, receipt }));
  } else if (out === undefined) {
    io.out(bundleText);
  }
  const unmet = unmetRequired(bundle);
  // Selectors come from the manifest, notes from git: escaped before the terminal sees them.
  io.err(safeForTerminal(summary(bundle, receipt, { root, out, receiptPath, json: values.json === true })));
  return contextExitCode(receipt.status, unmet, io);
}

/** Kernel's reference order: an unresolved required selector first (1 here, its 4), then maximum_exceeded (3). */
function contextExitCode(status: ContextReceipt["status"], unmet: UnmetRequirement[], io: Io): number {
  if (unmet.length > 0) {
    io.err(`handoff: ${unmet.length} required selector${unmet.length === 1 ? "" : "s"} not loaded:`);
    for (const u of unmet) io.err(safeLineForTerminal(`  ${u.selector}: ${u.why}`));
    io.err("  fix the manifest's context.required (or the repository) and rerun");
    return EXIT.domain;
  }
  if (status === "maximum_exceeded") {
    io.err("handoff: maximum_exceeded: the context is over budget.max_tokens; narrow the selectors or raise the maximum");
    return EXIT.operational;
  }
  return EXIT.ok;
}

/** --activate / --deactivate: arm or disarm the guard; no bundle is compiled. */
async function switchGuard(values: { activate?: boolean; deactivate?: boolean; receipt?: string; out?: string; repo?: string; json?: boolean }, positionals: string[], io: Io): Promise<number> {
  if (values.activate && values.deactivate) throw new HandoffError("usage", "--activate and --deactivate contradict each other", { hint: "pass one of them" });
  if (values.out !== undefined || values.repo !== undefined) throw new HandoffError("usage", "--out and --repo compile a bundle; they do not go with --activate or --deactivate", { hint: "run the compile and the activation as two commands" });
  const { activateManifest, deactivateManifest } = await import("../guard/activation.js");
  if (values.activate) {
    if (positionals.length !== 1) throw new HandoffError("usage", "handoff context --activate takes one MANIFEST", { hint: "run 'handoff context MANIFEST.json --activate'" });
    if (values.receipt !== undefined) throw new HandoffError("usage", "--receipt goes with --deactivate (or a compile), not --activate", { hint: "drop --receipt" });
    const result = await activateManifest({ manifest: positionals[0]!, cwd: io.cwd, env: io.env });
    if (values.json) io.out(JSON.stringify(result, null, 2));
    else io.out(result.pointer_path);
    const { mode, forbidden, allowlist } = result.pointer;
    io.err(`activated ${result.pointer.manifest} (mode=${mode}, forbidden=${forbidden.length} globs, allowlist=${allowlist.length} paths)${result.replaced ? `; it replaces ${result.replaced}` : ""}`);
    if (mode !== "advisory") io.err("  'handoff guard' enforces it once registered as a PreToolUse hook (the plugin does; see docs/agents.md)");
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new HandoffError("usage", "handoff context --deactivate takes no MANIFEST", { hint: "run 'handoff context --deactivate [--receipt F]'" });
  const result = await deactivateManifest({ cwd: io.cwd, env: io.env, ...(values.receipt === undefined ? {} : { receipt: values.receipt }) });
  if (values.json) io.out(JSON.stringify(result, null, 2));
  io.err(result.removed.length === 0 ? `nothing was active in ${result.root}` : `deactivated${result.merged > 0 ? `; merged ${result.merged} ledger record${result.merged === 1 ? "" : "s"} into ${result.receipt}` : ""}`);
  return EXIT.ok;
}

function summary(bundle: Bundle, receipt: ContextReceipt, where: { root: string; out?: string | undefined; receiptPath?: string | undefined; json: boolean }): string {
  const count = (outcome: string) => bundle.pieces.filter((p) => p.outcome === outcome).length;
  const limits = [
    bundle.budget.target_tokens === undefined ? undefined : `target ${bundle.budget.target_tokens}`,
    bundle.budget.max_tokens === undefined ? undefined : `maximum ${bundle.budget.max_tokens}`,
  ].filter(Boolean);
  const lines = [
    `context: ${count("resolved")} resolved, ${count("empty")} empty, ${count("missing")} missing, ${count("invalid")} invalid (repository ${where.root})`,
    `tokens: ~${receipt.total_estimated_tokens} (manifest ${receipt.manifest_tokens}, project instructions ${receipt.project_instructions_tokens}, selected ${receipt.selected_artifacts_tokens})${limits.length ? ` of ${limits.join(", ")}` : ""}: ${receipt.status}`,
  ];
  for (const piece of bundle.pieces) {
    if (piece.outcome === "missing" || piece.outcome === "invalid") lines.push(`  ${piece.outcome}: ${piece.list} ${piece.selector}${piece.note ? ` (${piece.note})` : ""}`);
  }
  const bundleAt = where.out === undefined ? (where.json ? "pieces in the --json output" : "stdout") : `${where.out} (sha256 ${receipt.bundle_sha256.slice(0, 12)})`;
  lines.push(`bundle: ${bundleAt}`);
  if (where.receiptPath !== undefined) lines.push(`receipt: ${where.receiptPath}`);
  return lines.join("\n");
}

async function refuseExisting(flag: string, path: string | undefined): Promise<void> {
  if (path === undefined) return;
  if ((await lstat(path).catch(() => undefined)) !== undefined) throw exists(flag, path);
}

function exists(flag: string, path: string): HandoffError {
  return new HandoffError("usage", `${flag} ${path} already exists; not overwriting it`, { hint: `choose another ${flag} file, or remove this one` });
}

/** Creates `path` with mode 0600; an existing file (or a symlink at the name) is never replaced. */
async function writeExclusive(flag: string, path: string, content: string): Promise<void> {
  try {
    const handle = await open(path, "wx", 0o600);
    try {
      await handle.writeFile(content);
    } catch (cause) {
      // A half-written file is worse than none; this one is ours, it was just created.
      await unlink(path).catch(() => undefined);
      throw cause;
    } finally {
      await handle.close();
    }
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "EEXIST") throw exists(flag, path);
    throw new HandoffError("io_failed", `cannot write ${path}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`, {
      hint: "check that the folder exists and is writable",
      cause,
    });
  }
}
