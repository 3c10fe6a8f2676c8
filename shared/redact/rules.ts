import { ASSIGNMENT_RULE } from "./assignment-rule.js";
import { CLI_PASSWORD_RULE } from "./cli-password-rule.js";
import { CONTEXT_RULES, FIELD_RULES } from "./context-rules.js";
import { CREDENTIAL_FILE_RULES } from "./credential-file-rules.js";
import { BASE64_KEY_RULES, KEY_FIELD_RULES } from "./key-field-rules.js";
import { PRIVATE_KEY_RULE } from "./private-key-rule.js";
import { PROSE_RULE } from "./prose-rule.js";
import { TOKEN_RULES } from "./token-rules.js";
import { VENDOR_RULES } from "./vendor-rules.js";
import type { Rule } from "./types.js";

/**
 * Every rule, most specific first: when two rules claim the same region, the earlier one
 * names it. The generic assignment rule and the prose rule come last.
 */
export const RULES: readonly Rule[] = [
  ...FIELD_RULES,
  PRIVATE_KEY_RULE,
  ...BASE64_KEY_RULES,
  ...TOKEN_RULES,
  ...VENDOR_RULES,
  ...CREDENTIAL_FILE_RULES,
  ...CONTEXT_RULES,
  ...KEY_FIELD_RULES,
  CLI_PASSWORD_RULE,
  ASSIGNMENT_RULE,
  PROSE_RULE,
];

/**
 * Every rule id any rule can report, in rule order.
 * @internal What the rule tests enumerate (a sample and adversarial inputs per id); redaction itself reports ids from spans.
 */
export const RULE_IDS: readonly string[] = [...new Set(RULES.flatMap((rule) => rule.ids))];
