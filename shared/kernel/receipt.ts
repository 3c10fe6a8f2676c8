import { RECEIPT_ADVISORIES } from "./advisories.js";
import { checkContextReceipt } from "./schema-checks.js";
import { type Rule, type ValidationIssue, asArray, asRecord, pyStrip, validateWith } from "./issues.js";
import { CONTEXT_RECEIPT_SCHEMA_ID } from "./receipt-fields.js";
import type { ContextReceipt } from "./receipt-schema.js";
import { integersAreLexical } from "./rules.js";
import type { NumberLiteral } from "./strict-json.js";

export type { ContextReceipt } from "./receipt-schema.js";

/**
 * kernel.context-receipt/v1 (its schema: receipt-schema.ts), plus the routing rules
 * kernel's reference enforces: a model or effort mismatch needs an authorized fallback with a
 * reason, a protected receipt names distinct builder and verifier, safety "unknown" only on a
 * migrated pre-Kernel-9 receipt.
 */

export { CONTEXT_RECEIPT_SCHEMA_ID, RECEIPT_STATUSES, SELECTION_OUTCOMES } from "./receipt-fields.js";

const UNAVAILABLE = "unavailable";

/**
 * The routing fields Kernel 9 made required, with the value that means "never recorded". A
 * receipt missing all of them predates that change and is read as if it had these values and
 * said so in migrated_fields; one missing only some is a broken receipt (kernel's reference).
 */
export const RECEIPT_V1_BACKFILL: Readonly<Record<string, unknown>> = {
  requested_model: UNAVAILABLE,
  observed_model: UNAVAILABLE,
  requested_effort: UNAVAILABLE,
  observed_effort: UNAVAILABLE,
  fallback_authorized: false,
  safety: "unknown",
  builder_identity: UNAVAILABLE,
  verifier_identity: UNAVAILABLE,
};

/** The receipt as it reads after the pre-Kernel-9 migration, and the fields that filled in. */
export function migrateContextReceipt(value: unknown): { value: unknown; migrated: string[] } {
  const receipt = asRecord(value);
  if (receipt?.schema !== CONTEXT_RECEIPT_SCHEMA_ID) return { value, migrated: [] };
  const absent = Object.keys(RECEIPT_V1_BACKFILL).filter((key) => !Object.hasOwn(receipt, key));
  if (absent.length !== Object.keys(RECEIPT_V1_BACKFILL).length) return { value, migrated: [] };
  const migrated = { ...receipt, ...RECEIPT_V1_BACKFILL };
  if (!Object.hasOwn(receipt, "migrated_fields")) migrated.migrated_fields = [...absent].sort();
  return { value: migrated, migrated: absent };
}

const blank = (value: unknown) => typeof value === "string" && pyStrip(value) === "";

const receiptRules: readonly Rule[] = [
  (value, report) => {
    const receipt = asRecord(value);
    if (receipt === undefined) return;
    if (receipt.safety === "unknown" && !asArray(receipt.migrated_fields).includes("safety")) {
      report(["safety"], "may be 'unknown' only in a migrated receipt whose migrated_fields lists 'safety'; a compiler never writes it");
    }
    for (const field of ["requested_model", "observed_model", "requested_effort", "observed_effort", "builder_identity", "verifier_identity"]) {
      if (blank(receipt[field])) report([field], `must be a non-empty value or '${UNAVAILABLE}'`);
    }
    const mismatched = (
      [
        ["requested_model", "observed_model"],
        ["requested_effort", "observed_effort"],
      ] as const
    ).some(([want, got]) => {
      const [a, b] = [receipt[want], receipt[got]];
      return typeof a === "string" && typeof b === "string" && a !== UNAVAILABLE && b !== UNAVAILABLE && a !== b;
    });
    if (mismatched && receipt.fallback_authorized !== true)
      report(["fallback_authorized"], "must be true: the observed model or effort differs from the requested one, which needs a pre-authorized fallback");
    if (receipt.fallback_authorized === true) {
      if (!mismatched) report(["fallback_authorized"], "is true, but no observed model or effort differs from the requested one");
      const reason = receipt.fallback_reason;
      if (typeof reason !== "string" || pyStrip(reason) === "" || reason === UNAVAILABLE) report(["fallback_reason"], "is required and must not be empty when fallback_authorized is true");
    }
    if (receipt.safety === "protected") {
      const [builder, verifier] = [receipt.builder_identity, receipt.verifier_identity];
      if (typeof builder !== "string" || typeof verifier !== "string" || builder === UNAVAILABLE || verifier === UNAVAILABLE || builder === verifier) {
        report(["verifier_identity"], "a protected receipt needs distinct, recorded builder and verifier identities");
      }
    }
  },
];

/**
 * Validates a parsed kernel.context-receipt/v1.
 *
 * @example
 * ```ts
 * validateContextReceipt({ ...receipt, fallback_authorized: true }).issues
 * // [{ path: "fallback_reason", message: "is required and must not be empty when ..." }]
 * ```
 */
export function validateContextReceipt(
  value: unknown,
  numbers: readonly NumberLiteral[] = [],
): { ok: boolean; issues: ValidationIssue[]; warnings: ValidationIssue[]; migrated: string[]; receipt?: ContextReceipt } {
  const { value: read, migrated } = migrateContextReceipt(value);
  const result = validateWith(checkContextReceipt, [integersAreLexical(numbers), ...receiptRules], read, RECEIPT_ADVISORIES);
  const { issues } = result;
  const warnings = migrated.length === 0 ? result.warnings : [{ path: "$", message: `a pre-Kernel-9 receipt: read ${migrated.join(", ")} as unrecorded` }, ...result.warnings];
  return result.value === undefined ? { ok: false, issues, warnings, migrated } : { ok: true, issues, warnings, migrated, receipt: result.value };
}
