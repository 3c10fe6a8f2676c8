import * as z from "zod/mini";
import type { RECEIPT_STATUSES } from "../kernel/receipt.js";
import { withoutForbiddenFiles } from "./diff.js";
import { normalizeRepoPath } from "../kernel/selector-rules.js";
import { type ContextSelector, estimateTokens, type Piece, selectorProblem, selectorSummary } from "./selector.js";

/**
 * Context compile: turns a manifest's `context` section into a bounded bundle. The resolver is
 * the client's (it reads files and runs git); this module decides what is asked for, in what
 * order, what is never read, and where the budget stops it.
 */

export interface ContextSpecLike {
  required?: unknown[];
  optional?: unknown[];
  forbidden?: string[];
  budget?: { target_tokens?: number; max_tokens?: number };
}

export interface BundlePiece extends Piece {
  list: "required" | "optional";
  /** Index within its list. */
  index: number;
}

export interface Bundle {
  /** Every selector, in order (required, then optional): resolved or not. */
  pieces: BundlePiece[];
  /** Sum over `pieces`: the selected artifacts. */
  total_estimated_tokens: number;
  budget: { target_tokens?: number; max_tokens?: number };
}

/**
 * What a session pays besides the selected artifacts, counted as kernel's reference counts it:
 * the manifest itself and the project instructions (CLAUDE.md, .claude/CLAUDE.md, AGENTS.md,
 * each distinct text once). Skills are 0 here: Handoff ships none (so does the reference's copy).
 */
export interface ContextOverhead {
  manifest_tokens: number;
  project_instructions_tokens: number;
}

/** The total the budget is judged on: overhead plus selected artifacts, as the reference sums it. */
export function totalTokens(bundle: Bundle, overhead: ContextOverhead): number {
  return overhead.manifest_tokens + overhead.project_instructions_tokens + bundle.total_estimated_tokens;
}

/** The receipt's status vocabulary. */
export type BudgetStatus = (typeof RECEIPT_STATUSES)[number];

export type SelectorResolver = (selector: ContextSelector) => Piece | Promise<Piece>;

/** What a field of the wrong shape reads as: absent. */
const orAbsent = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);
const tokens = () => orAbsent(z.number().check(z.int(), z.minimum(1)));

const ContextSpecSchema = z.looseObject({
  required: orAbsent(z.array(z.unknown())),
  optional: orAbsent(z.array(z.unknown())),
  forbidden: orAbsent(
    z.pipe(
      z.array(z.unknown()),
      z.transform((items) => items.filter((item): item is string => typeof item === "string")),
    ),
  ),
  budget: orAbsent(z.looseObject({ target_tokens: tokens(), max_tokens: tokens() })),
});

/**
 * Resolves `context.required` then `context.optional`, in order, every one of them, as kernel's
 * reference compile does: the budget judges the total afterwards (budgetStatus), it does not cut
 * the bundle. A selector that is malformed, escapes the repository or names a path matching a
 * `context.forbidden` glob is never passed to `resolve` (outcome "invalid", note says why).
 * Tokens are estimated as the reference does (round(characters / 4)).
 *
 * @example
 * ```ts
 * const bundle = await compileContext(manifest, (s) => resolveSelector(s, readFor(s)), matchGlob);
 * bundle.total_estimated_tokens // 1234
 * ```
 */
export async function compileContext(manifest: { context?: ContextSpecLike }, resolve: SelectorResolver, matchGlob: (pattern: string, path: string) => boolean): Promise<Bundle> {
  const parsed = ContextSpecSchema.safeParse(manifest.context ?? {});
  const spec = parsed.success ? parsed.data : {};
  const forbidden = spec.forbidden ?? [];
  const budget = {
    ...(spec.budget?.target_tokens === undefined ? {} : { target_tokens: spec.budget.target_tokens }),
    ...(spec.budget?.max_tokens === undefined ? {} : { max_tokens: spec.budget.max_tokens }),
  };
  const queue = [
    ...(spec.required ?? []).map((selector, index) => ({ selector, index, list: "required" as const })),
    ...(spec.optional ?? []).map((selector, index) => ({ selector, index, list: "optional" as const })),
  ];
  const pieces: BundlePiece[] = [];
  let total = 0;
  for (const { selector: raw, index, list } of queue) {
    const selector = (typeof raw === "object" && raw !== null ? raw : {}) as ContextSelector;
    const piece = await resolveGuarded(raw, selector, resolve, forbidden, matchGlob);
    total += piece.estimated_tokens;
    pieces.push({ ...piece, list, index });
  }
  return { pieces, total_estimated_tokens: total, budget };
}

/**
 * Where a compile stands against its budget, judged on the total kernel's reference judges
 * (manifest, project instructions and selected artifacts): "maximum_exceeded" over
 * budget.max_tokens, else "target_exceeded" over budget.target_tokens, else "within_budget".
 *
 * @example
 * ```ts
 * budgetStatus({ pieces: [], total_estimated_tokens: 40, budget: { target_tokens: 30 } }) // "target_exceeded"
 * ```
 */
export function budgetStatus(bundle: Bundle, overhead: ContextOverhead = { manifest_tokens: 0, project_instructions_tokens: 0 }): BudgetStatus {
  const total = totalTokens(bundle, overhead);
  const { target_tokens: target, max_tokens: max } = bundle.budget;
  if (max !== undefined && total > max) return "maximum_exceeded";
  return target !== undefined && total > target ? "target_exceeded" : "within_budget";
}

async function resolveGuarded(raw: unknown, selector: ContextSelector, resolve: SelectorResolver, forbidden: string[], matchGlob: (pattern: string, path: string) => boolean): Promise<Piece> {
  const invalid = (note: string): Piece => ({
    selector: selectorSummary(selector),
    reason: typeof selector.reason === "string" ? selector.reason : "",
    text: "",
    estimated_tokens: 0,
    outcome: "invalid",
    note,
  });
  const problem = selectorProblem(raw);
  if (problem !== undefined) return invalid(problem);
  // Globs and reads see the path with `.` and `..` resolved: `docs/../secrets/k` is `secrets/k`.
  const normalized = selector.path === undefined ? selector : { ...selector, path: normalizeRepoPath(selector.path) };
  if (normalized.path !== undefined && forbidden.some((glob) => matchGlob(glob, normalized.path!))) return invalid("forbidden");
  const piece = await resolve(normalized);
  if (selector.git_diff === undefined || piece.outcome !== "resolved") return piece;
  const { diff, removed } = withoutForbiddenFiles(piece.text, forbidden, matchGlob);
  if (removed.length === 0) return piece;
  const note = `removed changes to forbidden paths: ${removed.join(", ")}`;
  return {
    ...piece,
    text: diff,
    estimated_tokens: estimateTokens(diff),
    outcome: diff.trim() === "" ? "empty" : "resolved",
    note: piece.note ? `${piece.note}; ${note}` : note,
  };
}
