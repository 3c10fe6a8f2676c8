import { type Bundle, type BudgetStatus, type ContextOverhead, budgetStatus, totalTokens } from "./compile.js";
import { estimateTokens, type SelectionOutcome } from "./selector.js";

/** The estimation method every receipt states: chars/4 undercounts markup and JSON structure. */
export const ESTIMATION_METHOD = "chars/4 (directional; structural overhead undercounted)";

/** What is not observable from a CLI: a receipt says so rather than guessing. */
const UNAVAILABLE = "unavailable";

/** A kernel.context-receipt/v1 as this compiler emits it. */
export interface ContextReceipt {
  schema: "kernel.context-receipt/v1";
  manifest: string;
  manifest_sha256: string;
  bundle_sha256: string;
  requested_model: string;
  observed_model: string;
  requested_effort: string;
  observed_effort: string;
  fallback_authorized: boolean;
  safety: "normal" | "protected";
  builder_identity: string;
  verifier_identity: string;
  created?: string;
  manifest_tokens: number;
  project_instructions_tokens: number;
  always_skills_tokens: number;
  workflow_skills_tokens: number;
  domain_skills_tokens: number;
  selected_artifacts_tokens: number;
  agentdb_tokens: number;
  total_estimated_tokens: number;
  target_budget_tokens?: number;
  maximum_budget_tokens?: number;
  status: BudgetStatus;
  estimation_method: string;
  selections: {
    selector: string;
    resolved: boolean;
    outcome: SelectionOutcome;
    resolved_sha256?: string;
    estimated_tokens: number;
    note?: string;
  }[];
  loads_beyond_manifest: { path: string; reason?: string; estimated_tokens?: number }[];
}

export interface ReceiptInput {
  /** Path of the manifest as the user named it. */
  manifestPath: string;
  /** The manifest's exact text, hashed as read. */
  manifestText: string;
  bundle: Bundle;
  /** The emitted bundle text (renderBundle's output), hashed as written. */
  bundleText: string;
  /** Tokens of the project instruction files (see ContextOverhead); 0 when there are none. */
  projectInstructionsTokens?: number;
  /** ISO 8601 time of the compile; passed in so this stays pure. */
  created?: string;
  sha256hex?: (text: string) => Promise<string>;
}

/**
 * Builds a kernel.context-receipt/v1 for a compile. Model, effort, builder and verifier are
 * "unavailable" (a CLI cannot observe them and must never copy requested into observed); safety
 * is "normal". Selections cover every selector in manifest order with its outcome and, when
 * resolved, the sha256 of the text loaded. total_estimated_tokens is what kernel's reference
 * counts: the manifest, the project instructions and the selected artifacts (skills and agentdb
 * are 0: none are loaded by Handoff), and the status is judged on it.
 *
 * @example
 * ```ts
 * const receipt = await buildReceipt({ manifestPath, manifestText, bundle, bundleText: renderBundle(bundle) });
 * receipt.status // "within_budget"
 * ```
 */
export async function buildReceipt(input: ReceiptInput): Promise<ContextReceipt> {
  const hash = input.sha256hex ?? sha256hex;
  const { bundle } = input;
  const kept = await Promise.all(
    bundle.pieces.map(async (piece) => ({
      order: order(piece),
      selection: {
        selector: piece.selector,
        resolved: piece.outcome === "resolved",
        outcome: piece.outcome,
        ...(piece.outcome === "resolved" ? { resolved_sha256: await hash(piece.text) } : {}),
        estimated_tokens: piece.estimated_tokens,
        ...(piece.note === undefined ? {} : { note: piece.note }),
      },
    })),
  );
  const selections = kept.sort((a, b) => a.order - b.order).map((s) => s.selection);
  // The reference reads the manifest in text mode: line endings count as one "\n".
  const overhead: ContextOverhead = { manifest_tokens: estimateTokens(input.manifestText.replace(/\r\n?/g, "\n")), project_instructions_tokens: input.projectInstructionsTokens ?? 0 };
  return {
    schema: "kernel.context-receipt/v1",
    manifest: input.manifestPath,
    manifest_sha256: await hash(input.manifestText),
    bundle_sha256: await hash(input.bundleText),
    requested_model: UNAVAILABLE,
    observed_model: UNAVAILABLE,
    requested_effort: UNAVAILABLE,
    observed_effort: UNAVAILABLE,
    fallback_authorized: false,
    safety: "normal",
    builder_identity: UNAVAILABLE,
    verifier_identity: UNAVAILABLE,
    ...(input.created === undefined ? {} : { created: input.created }),
    manifest_tokens: overhead.manifest_tokens,
    project_instructions_tokens: overhead.project_instructions_tokens,
    always_skills_tokens: 0,
    workflow_skills_tokens: 0,
    domain_skills_tokens: 0,
    selected_artifacts_tokens: bundle.total_estimated_tokens,
    agentdb_tokens: 0,
    total_estimated_tokens: totalTokens(bundle, overhead),
    ...(bundle.budget.target_tokens === undefined ? {} : { target_budget_tokens: bundle.budget.target_tokens }),
    ...(bundle.budget.max_tokens === undefined ? {} : { maximum_budget_tokens: bundle.budget.max_tokens }),
    status: budgetStatus(bundle, overhead),
    estimation_method: ESTIMATION_METHOD,
    selections,
    loads_beyond_manifest: [],
  };
}

/**
 * Lower-case hex SHA-256 of the UTF-8 bytes of `text`, with WebCrypto (Node 20 and workerd).
 *
 * @example
 * ```ts
 * await sha256hex("") // "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
 * ```
 */
export async function sha256hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Required selectors come before optional ones; within a list, manifest order.
function order(entry: { list: "required" | "optional"; index: number }): number {
  return (entry.list === "required" ? 0 : 1_000_000) + entry.index;
}
