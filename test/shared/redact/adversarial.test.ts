import { describe, expect, it } from "vitest";
import { redactText } from "../../../shared/redact/index.js";
import { ADVERSARIAL_CASES, MIB } from "../../fixtures/redact/adversarial.js";
import { expectConsistent } from "./consistency.js";

// Correctness on hostile 1 MiB inputs; bench/redact.bench.js measures how long they take.
describe("adversarial 1 MiB inputs", () => {
  it.each(ADVERSARIAL_CASES.map((c) => [`${c.rule}: ${c.name}`, c] as const))("%s", (_name, adversarial) => {
    const input = adversarial.make(MIB);
    expect(input.length).toBe(MIB);
    // A generous deadline: this test is about results, and a slow CI machine must not fail it.
    const result = redactText(input, { deadlineMs: 60_000 });
    expectConsistent(input, result);
    if (adversarial.expect === "none") expect(result.findings).toEqual([]);
    else if (adversarial.expect === "some") expect(result.findings.length).toBeGreaterThan(0);
  });
});
