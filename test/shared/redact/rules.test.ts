import { describe, expect, it } from "vitest";
import { redactText } from "../../../shared/redact/index.js";
import { RULE_IDS, RULES } from "../../../shared/redact/rules.js";
import { ADVERSARIAL_CASES } from "../../fixtures/redact/adversarial.js";
import { negativeSamples, positiveSamples } from "../../fixtures/redact/samples.js";
import { expectConsistent, survivingWindows } from "./consistency.js";

const positives = [...positiveSamples(1), ...positiveSamples(99)];

describe("every rule", () => {
  it.each(RULE_IDS)("%s has a positive sample", (id) => {
    expect(positives.some((sample) => sample.rule === id)).toBe(true);
  });
  it.each(RULES.map((rule) => rule.ids[0] ?? ""))("%s has adversarial inputs", (id) => {
    expect(ADVERSARIAL_CASES.some((c) => c.rule === id)).toBe(true);
  });
});

describe("positives", () => {
  it.each(positives.map((sample, i) => [`${sample.rule} #${i}`, sample] as const))("%s", (_name, sample) => {
    const line = `before\n${sample.text}\nafter\n`;
    const result = redactText(line);
    expectConsistent(line, result);
    expect(result.findings.map((f) => f.rule)).toEqual([sample.rule]);
    const linesBefore = sample.text.slice(0, sample.text.indexOf(sample.secret)).split("\n").length - 1;
    expect(result.findings[0]?.line).toBe(2 + linesBefore);
    expect(result.text).toContain(`[REDACTED:${sample.rule}]`);
    expect(survivingWindows(sample.secret, result.text)).toEqual([]);
    for (const kept of sample.keep ?? []) expect(result.text).toContain(kept);
    // The report itself never carries the secret.
    expect(survivingWindows(sample.secret, JSON.stringify({ findings: result.findings, counts: result.counts }))).toEqual([]);
  });
});

describe("negatives", () => {
  it.each(negativeSamples().map((sample) => [sample.near, sample.text] as const))("near %s: %s", (_near, text) => {
    const result = redactText(text);
    expect(result.findings).toEqual([]);
    expect(result.text).toBe(text);
  });
});
