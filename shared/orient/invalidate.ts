import type { DriftItem } from "./drift.js";

export interface PhaseLike {
  name: string;
  status: string;
  evidence?: string;
}

export interface InvalidationRuleLike {
  when: { event: string; path_glob?: string };
  invalidates: string[];
}

export interface AppliedRule {
  /** Index into `workflow.invalidation_rules`. */
  rule: number;
  event: string;
  /** The path of the event that fired the rule (artifact or missing path), when it has one. */
  path?: string;
  /** Phases this rule turns to `invalidated`: those it names that the manifest had as `inherited`. */
  invalidated: string[];
}

/**
 * Applies kernel invalidation rules to workflow phases. A rule fires when an event of its
 * `when.event` name occurred in the drift report, whatever that event's status: "ok" events
 * such as `branch_match` occur too, and an author who names one means it. With `when.path_glob`
 * the rule fires only for events that carry a path matching the glob; an event without a path
 * never matches a rule with a glob. Firing flips the named phases that are `inherited` to
 * `invalidated`; `required` phases stay required, unknown names are ignored (strict validation
 * rejects them earlier). One entry in `applied` per (rule, matching event). Inputs are not
 * mutated.
 *
 * @example
 * ```ts
 * applyInvalidationRules(
 *   [{ name: "recon", status: "inherited" }],
 *   [{ when: { event: "branch_diverged" }, invalidates: ["recon"] }],
 *   [{ event: "branch_diverged", status: "drift", severity: "warn", message: "" }],
 *   matchGlob,
 * )
 * // { phases: [{ name: "recon", status: "invalidated" }], applied: [{ rule: 0, event: "branch_diverged", invalidated: ["recon"] }] }
 * ```
 */
export function applyInvalidationRules<P extends PhaseLike>(
  phases: P[],
  rules: InvalidationRuleLike[],
  drift: DriftItem[],
  matchGlob: (pattern: string, path: string) => boolean,
): { phases: P[]; applied: AppliedRule[] } {
  const inherited = new Set(phases.filter((p) => p.status === "inherited").map((p) => p.name));
  const flipped = new Set<string>();
  const applied: AppliedRule[] = [];
  rules.forEach((rule, index) => {
    const glob = rule.when.path_glob;
    const firing = drift.filter((item) => item.event === rule.when.event && (glob === undefined || (item.path !== undefined && matchGlob(glob, item.path))));
    if (firing.length === 0) return;
    const invalidated = [...new Set(rule.invalidates)].filter((name) => inherited.has(name));
    for (const name of invalidated) flipped.add(name);
    for (const item of firing) {
      applied.push({ rule: index, event: item.event, ...(item.path === undefined ? {} : { path: item.path }), invalidated });
    }
  });
  return {
    phases: phases.map((phase) => (flipped.has(phase.name) ? { ...phase, status: "invalidated" } : phase)),
    applied,
  };
}
