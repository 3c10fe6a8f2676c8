import { lstat, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import type { Bundle } from "../../../shared/context/compile.js";
import type { ContextReceipt } from "../../../shared/context/receipt.js";
import { renderBundle } from "../../../shared/context/render.js";
import { HandoffError } from "../../../shared/errors.js";
import { implement } from "../command.js";
import { compileManifest, type UnmetRequirement, unmetRequired } from "../../ops/context/compile.js";
import { oneLine, terminalSafe } from "../../platform/terminal.js";
import { createFile } from "../../platform/fs.js";
import type { contextSpec } from "./spec.js";
import type { RunContext } from "../../lib/run-context.js";
import type { ActivationResult, DeactivationResult } from "../../ops/activate/activation.js";

export interface CompileResult {
  kind: "compile";
  manifest: string;
  repository: string;
  bundle: Bundle;
  receipt: ContextReceipt;
  out: string | null;
  receipt_path: string | null;
  /** Required selectors that did not load; non-empty means exit 1. */
  unmet: UnmetRequirement[];
}

export type ContextResult = CompileResult | ({ kind: "activate" } & ActivationResult) | ({ kind: "deactivate" } & DeactivationResult);

export const command = implement<typeof contextSpec>()({
  async run({ flags, positionals, ctx }): Promise<ContextResult> {
    if (flags.activate || flags.deactivate) return switchGuard(flags, positionals, ctx);
    if (positionals.length === 0) throw new HandoffError("usage", "handoff context needs which manifest? pass MANIFEST.json", { hint: "run 'handoff context MANIFEST'" });
    const source = positionals[0]!;
    const out = flags.out === undefined ? undefined : resolve(ctx.cwd, flags.out);
    const receiptPath = flags.receipt === undefined ? undefined : resolve(ctx.cwd, flags.receipt);
    if (out !== undefined && out === receiptPath) {
      throw new HandoffError("usage", "--out and --receipt name the same file", { hint: "give the receipt its own file" });
    }
    // Refuse early, before any work; the writes themselves are exclusive too.
    await refuseExisting("--out", out);
    await refuseExisting("--receipt", receiptPath);

    const { root, bundle, bundleText, receipt } = await compileManifest(source, ctx, { repo: flags.repo });
    if (out !== undefined) await writeExclusive("--out", out, bundleText);
    if (receiptPath !== undefined) {
      await writeExclusive("--receipt", receiptPath, `${JSON.stringify(receipt, null, 2)}\n`).catch(async (error: unknown) => {
        // Both files or neither: a bundle without its receipt would look like a finished run.
        if (out !== undefined) await unlink(out).catch(() => undefined);
        throw error;
      });
    }
    return { kind: "compile", manifest: source, repository: root, bundle, receipt, out: out ?? null, receipt_path: receiptPath ?? null, unmet: unmetRequired(bundle) };
  },
  human(result, { json }) {
    if (result.kind === "activate") {
      const { mode, forbidden, allowlist } = result.pointer;
      const lines = [
        oneLine(
          `activated ${result.pointer.manifest} (mode=${mode}, forbidden=${forbidden.length} globs, allowlist=${allowlist.length} paths)${result.replaced ? `; it replaces ${result.replaced}` : ""}`,
        ),
      ];
      if (mode !== "advisory") lines.push("  'handoff guard' enforces it once registered as a PreToolUse hook (the plugin does; see docs/agents.md)");
      return { out: oneLine(result.pointer_path), err: lines.join("\n") };
    }
    if (result.kind === "deactivate") {
      return {
        err: oneLine(
          result.removed.length === 0
            ? `nothing was active in ${result.root}`
            : `deactivated${result.merged > 0 ? `; merged ${result.merged} ledger record${result.merged === 1 ? "" : "s"} into ${result.receipt}` : ""}`,
        ),
      };
    }
    // Selectors come from the manifest, notes from git: escaped before the terminal sees them.
    const lines = [terminalSafe(summary(result.bundle, result.receipt, { root: result.repository, out: result.out ?? undefined, receiptPath: result.receipt_path ?? undefined, json }))];
    if (result.unmet.length > 0) {
      lines.push(`handoff: ${result.unmet.length} required selector${result.unmet.length === 1 ? "" : "s"} not loaded:`);
      for (const u of result.unmet) lines.push(oneLine(`  ${u.selector}: ${u.why}`));
      lines.push("  fix the manifest's context.required (or the repository) and rerun");
    } else if (result.receipt.status === "maximum_exceeded") {
      lines.push("handoff: maximum_exceeded: the context is over budget.max_tokens; narrow the selectors or raise the maximum");
    }
    const tokens = { manifest_tokens: result.receipt.manifest_tokens, project_instructions_tokens: result.receipt.project_instructions_tokens };
    // The bundle quotes the manifest and the selected files: escaped on stdout, exact in --out F.
    return { err: lines.join("\n"), ...(result.out === null ? { out: terminalSafe(renderBundle(result.bundle, tokens)) } : {}) };
  },
  // Kernel's reference order: an unresolved required selector first (1), then maximum_exceeded (3:
  // the bundle and receipt are still written, as the reference does).
  outcome: (result) => (result.kind !== "compile" ? "ok" : result.unmet.length > 0 ? "invalid_document" : result.receipt.status === "maximum_exceeded" ? "too_large" : "ok"),
  json: (result) => {
    if (result.kind !== "compile") {
      const { kind: _kind, ...rest } = result;
      return rest;
    }
    const {
      manifest,
      bundle: { pieces, total_estimated_tokens },
      receipt,
    } = result;
    return { manifest, bundle: { pieces, total_estimated_tokens }, receipt };
  },
});

/** --activate / --deactivate: arm or disarm the guard; no bundle is compiled. */
async function switchGuard(flags: { activate?: boolean; deactivate?: boolean; receipt?: string; out?: string; repo?: string }, positionals: string[], ctx: RunContext): Promise<ContextResult> {
  const { activateManifest, deactivateManifest } = await import("../../ops/activate/activation.js");
  if (flags.activate) {
    if (positionals.length !== 1) throw new HandoffError("usage", "handoff context --activate takes one MANIFEST", { hint: "run 'handoff context MANIFEST.json --activate'" });
    return { kind: "activate", ...(await activateManifest({ manifest: positionals[0]!, cwd: ctx.cwd, env: ctx.env })) };
  }
  if (positionals.length > 0) throw new HandoffError("usage", "handoff context --deactivate takes no MANIFEST", { hint: "run 'handoff context --deactivate [--receipt F]'" });
  return { kind: "deactivate", ...(await deactivateManifest({ cwd: ctx.cwd, env: ctx.env, ...(flags.receipt === undefined ? {} : { receipt: flags.receipt }) })) };
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
  if (createFile(path, content) === "exists") throw exists(flag, path);
}
