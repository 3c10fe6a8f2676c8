import { type Bundle, compileContext } from "../../../shared/context/compile.js";
import { buildReceipt, type ContextReceipt } from "../../../shared/context/receipt.js";
import { renderBundle } from "../../../shared/context/render.js";
import { estimateTokens } from "../../../shared/context/selector.js";
import { HandoffError } from "../../../shared/errors.js";
import { validateContextReceipt } from "../../../shared/kernel/receipt.js";
import { matchGlob } from "../../../shared/repo/glob.js";
import { kernelTimestamp } from "../../../shared/time/timestamps.js";
import { findRepositoryRoot, projectInstructionsTokens, selectorReader } from "../../lib/context-io.js";
import { readManifestFile, validatedManifest } from "../../lib/manifest-file.js";
import type { RunContext } from "../../lib/run-context.js";

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
export async function compileManifest(source: string, ctx: RunContext, options: { repo?: string | undefined } = {}): Promise<CompiledContext> {
  const text = await readManifestFile(source, { cwd: ctx.cwd });
  const manifest = validatedManifest(source, text);
  const root = await findRepositoryRoot({ manifestPath: source, cwd: ctx.cwd, env: ctx.env, ...(options.repo === undefined ? {} : { repo: options.repo }) });
  const forbidden = manifest.context.forbidden ?? [];
  // A forbidden folder glob covers what is inside it: the guard errs toward not reading.
  const isForbidden = (glob: string, path: string) => matchGlob(glob, path, { matchParents: true });
  const reader = selectorReader({ root, forbidden, env: ctx.env, isForbidden: (path) => forbidden.some((glob) => isForbidden(glob, path)) });
  const bundle = await compileContext(manifest, reader, isForbidden);
  const projectTokens = projectInstructionsTokens(root);
  const bundleText = renderBundle(bundle, { manifest_tokens: estimateTokens(text.replace(/\r\n?/g, "\n")), project_instructions_tokens: projectTokens });
  const receipt = await buildReceipt({ manifestPath: source, manifestText: text, bundle, bundleText, projectInstructionsTokens: projectTokens, created: kernelTimestamp(ctx.now()) });
  const check = validateContextReceipt(receipt);
  if (!check.ok) {
    throw new HandoffError("internal", `the receipt does not validate: ${check.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, {
      hint: "this is a bug; report it with the manifest",
    });
  }
  return { root, bundle, bundleText, receipt };
}
