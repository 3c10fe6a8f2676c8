import { checkKernelCheckpoint } from "./schema-checks.js";
import { type ValidationIssue, validateWith } from "./issues.js";
import { KERNEL_CHECKPOINT_ADVISORIES } from "./advisories.js";
import { kernelCheckpointRules } from "./rules.js";
import type { NumberLiteral } from "./strict-json.js";
import type { KernelCheckpoint } from "./checkpoint-schema.js";

/**
 * kernel.checkpoint/v1 (its schema: checkpoint-schema.ts): a smaller mid-task record a resume can
 * start from. The handoff rules apply to it as kernel's reference applies them, plus one of its
 * own: a dirty checkpoint pins its uncommitted changes (dirty_tree_sha256).
 */

export type { KernelCheckpoint } from "./checkpoint-schema.js";

/**
 * Validates a parsed kernel.checkpoint/v1; `ok` means a resume may treat it as a checkpoint.
 *
 * @example
 * ```ts
 * validateKernelCheckpoint(JSON.parse(text)).ok
 * ```
 */
export function validateKernelCheckpoint(
  value: unknown,
  numbers: readonly NumberLiteral[] = [],
): { ok: boolean; issues: ValidationIssue[]; warnings: ValidationIssue[]; checkpoint?: KernelCheckpoint } {
  const result = validateWith(checkKernelCheckpoint, kernelCheckpointRules(numbers), value, KERNEL_CHECKPOINT_ADVISORIES);
  const { issues, warnings } = result;
  return result.value === undefined ? { ok: false, issues, warnings } : { ok: true, issues, warnings, checkpoint: result.value };
}
