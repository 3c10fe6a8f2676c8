/**
 * kernel.context-receipt/v1's identity and enums, apart from its zod schema (receipt-schema.ts)
 * and its validation (receipt.ts), which both read them.
 */

export const CONTEXT_RECEIPT_SCHEMA_ID = "kernel.context-receipt/v1";
export const RECEIPT_STATUSES = ["within_budget", "target_exceeded", "maximum_exceeded"] as const;
export const SELECTION_OUTCOMES = ["resolved", "empty", "invalid", "missing"] as const;
