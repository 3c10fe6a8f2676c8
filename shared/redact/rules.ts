import { ASSIGNMENT_RULE } from "./assignment-rule.js";
import { CONTEXT_RULES, FIELD_RULES } from "./context-rules.js";
import { PRIVATE_KEY_RULE } from "./private-key-rule.js";
import { TOKEN_RULES } from "./token-rules.js";
import type { Rule } from "./types.js";

/**
 * Every rule, most specific first: when two rules claim the same region, the earlier one
 * names it. The generic assignment rule comes last.
 */
export const RULES: readonly Rule[] = [...FIELD_RULES, PRIVATE_KEY_RULE, ...TOKEN_RULES, ...CONTEXT_RULES, ASSIGNMENT_RULE];

/** Every rule id any rule can report, in rule order. */
export const RULE_IDS: readonly string[] = [...new Set(RULES.flatMap((rule) => rule.ids))];
