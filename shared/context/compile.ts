import * as z from "zod";
import type { RECEIPT_STATUSES } from "../kernel/receipt.js";
import { withoutForbiddenFiles } from "./diff.js";
import { normalizeRepoPath } from "../selector-rules.js";
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

export interface DroppedPiece {
  selector: string;
  reason: string;
  list: "required" | "optional";
  index: number;
  /** Known when the selector was resolved before it was dropped. */
  estimated_tokens?: number;
  why: string;
}

export interface Bundle {
  /** Every selector that was considered and kept, in order: resolved or not. */
  pieces: BundlePiece[];
  /** Selectors left out by the budget, in order. */
  dropped: DroppedPiece[];
  /** Sum over `pieces`. */
  total_estimated_tokens: number;
  budget: { target_tokens?: number; max_tokens?: number };
}

/** The receipt's status vocabulary. */
export type BudgetStatus = (typeof RECEIPT_STATUSES)[number];

export type SelectorResolver = (selector: ContextSelector) => Piece | Promise<Piece>;

const ContextSpecSchema = z.looseObject({
  required: z.array(z.unknown()).optional().catch(undefined),
  optional: z.array(z.unknown()).optional().catch(undefined),
  forbidden: z
    .array(z.unknown())
    .transform((items) => items.filter((item): item is string => typeof item === "string"))
    .optional()
    .catch(undefined),
  budget: z
    .looseObject({
      target_tokens: z.number().int().min(1).optional().catch(undefined),
      max_tokens: z.number().int().min(1).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
});

/**
 * Resolves `context.required` then `context.optional`, in order. A selector that is malformed,
 * escapes the repository or names a path matching a `context.forbidden` glob is never passed to
 * `resolve` (outcome "invalid", note says why). Tokens are estimated as ceil(chars/4). Before a
 * piece would take the total past `budget.max_tokens` the compile stops: that piece and every
 * later selector are listed in `dropped` with the reason, unresolved ones unread.
 *
 * @example
 * ```ts
 * const bundle = await compileContext(manifest, (s) => resolveSelector(s, readFor(s)), matchGlob);
 * bundle.dropped // [{ selector: "CHANGELOG.md lines 1-30", why: "would exceed budget.max_tokens 60000 ..." }]
 * ```
 */
export async function compileContext(
  manifest: { context?: ContextSpecLike },
  resolve: SelectorResolver,
  matchGlob: (pattern: string, path: string) => boolean,
): Promise<Bundle> {
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
  const dropped: DroppedPiece[] = [];
  let total = 0;
  let stoppedAt: string | undefined;

  for (const { selector: raw, index, list } of queue) {
    const selector = (typeof raw === "object" && raw !== null ? raw : {}) as ContextSelector;
    const summary = selectorSummary(selector);
    const reason = typeof selector.reason === "string" ? selector.reason : "";
    if (stoppedAt !== undefined) {
      dropped.push({ selector: summary, reason, list, index, why: `not reached: the budget stopped the compile at ${stoppedAt}` });
      continue;
    }
    const piece = await resolveGuarded(raw, selector, resolve, forbidden, matchGlob);
    if (budget.max_tokens !== undefined && total + piece.estimated_tokens > budget.max_tokens) {
      dropped.push({
        selector: summary,
        reason,
        list,
        index,
        estimated_tokens: piece.estimated_tokens,
        why: `would exceed budget.max_tokens ${budget.max_tokens}: ${total} + ${piece.estimated_tokens} tokens`,
      });
      stoppedAt = summary;
      continue;
    }
    total += piece.estimated_tokens;
    pieces.push({ ...piece, list, index });
  }
  return { pieces, dropped, total_estimated_tokens: total, budget };
}

/**
 * Where a bundle stands against its budget: "maximum_exceeded" when the manifest asked for more
 * than budget.max_tokens (the compile stopped and dropped pieces, so what was loaded stayed
 * under it), "target_exceeded" when the loaded total is over budget.target_tokens.
 *
 * @example
 * ```ts
 * budgetStatus({ pieces: [], dropped: [], total_estimated_tokens: 40, budget: { target_tokens: 30 } }) // "target_exceeded"
 * ```
 */
export function budgetStatus(bundle: Bundle): BudgetStatus {
  if (bundle.dropped.length > 0) return "maximum_exceeded";
  const target = bundle.budget.target_tokens;
  return target !== undefined && bundle.total_estimated_tokens > target ? "target_exceeded" : "within_budget";
}

async function resolveGuarded(
  raw: unknown,
  selector: ContextSelector,
  resolve: SelectorResolver,
  forbidden: string[],
  matchGlob: (pattern: string, path: string) => boolean,
): Promise<Piece> {
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
