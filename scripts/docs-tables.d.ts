// Types for scripts/docs-tables.js (plain JavaScript, run by `node scripts/docs-tables.js`).
import type { Rule } from "../shared/redact/types.js";

export const REDACTION_DOC: string;
/** docs/redaction.md's rule table for `rules`: one row per id; throws when an id has no docs entry. */
export function redactionRuleTable(rules: readonly Rule[]): string;
/** `docs` with its generated rule table replaced by the one for `rules`. */
export function withRedactionRuleTable(docs: string, rules: readonly Rule[]): string;
