import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REDACTION_DOC, redactionRuleTable, withRedactionRuleTable } from "../../../scripts/docs-tables.js";
import { redactText } from "../../../shared/redact/index.js";
import { RULE_IDS, RULES } from "../../../shared/redact/rules.js";
import type { Rule } from "../../../shared/redact/types.js";

// docs/redaction.md's rule table is generated from the rules' own `docs` (issue 36: 72 of 110 ids
// were missing from the hand-written one). After changing a rule: node scripts/docs-tables.js
const docsPath = new URL(`../../../${REDACTION_DOC}`, import.meta.url);

describe("docs/redaction.md's rule table", () => {
  it("is exactly what scripts/docs-tables.js generates from shared/redact/rules.ts", () => {
    const docs = readFileSync(docsPath, "utf8");
    expect(docs).toBe(withRedactionRuleTable(docs, RULES));
  });

  it("has one row per rule id", () => {
    const rows = redactionRuleTable(RULES)
      .split("\n")
      .slice(2)
      .map((row) => /^\| `([^`]+)` \|/.exec(row)?.[1]);
    expect(rows).toEqual([...RULE_IDS]);
  });

  it("shows no string the redactor would take for a secret", () => {
    expect(redactText(redactionRuleTable(RULES)).findings).toEqual([]);
  });

  it("refuses a rule whose id has no description, and a description of no id", () => {
    const bare: Rule = { ids: ["new-rule"], docs: {}, prefixes: ["x"], find: () => {} };
    expect(() => redactionRuleTable([...RULES, bare])).toThrow(/new-rule has no docs entry/);
    const stray: Rule = { ...bare, docs: { "new-rule": { what: "w", shape: "s" }, other: { what: "w", shape: "s" } } };
    expect(() => redactionRuleTable([stray])).toThrow(/names other/);
  });
});
