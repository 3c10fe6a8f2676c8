import { expect } from "vitest";
import type { RedactionResult } from "../../../shared/redact/index.js";

/** Offset in `text` of a 1-based line and column. */
export function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) at = text.indexOf("\n", at) + 1;
  return at + column - 1;
}

/**
 * A result is consistent with its input when replacing exactly the reported regions of the
 * input by their markers gives the output: nothing else changed, and the report is true.
 */
export function expectConsistent(input: string, result: RedactionResult): void {
  // Line starts computed once: a hostile input has tens of thousands of findings.
  const lineStarts = [0];
  for (let i = input.indexOf("\n"); i !== -1; i = input.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  let rebuilt = "";
  let at = 0;
  for (const finding of result.findings) {
    const start = (lineStarts[finding.line - 1] ?? input.length) + finding.column - 1;
    expect(start).toBeGreaterThanOrEqual(at);
    rebuilt += input.slice(at, start) + `[REDACTED:${finding.rule}]`;
    at = start + finding.length;
  }
  rebuilt += input.slice(at);
  expect(rebuilt).toBe(result.text);
  const total = Object.values(result.counts).reduce((sum, n) => sum + n, 0);
  expect(total).toBe(result.findings.length);
  expect(result.complete).toBe(true);
}

/** Every 8-character window of `secret` that is absent from `output`; empty when none survived. */
export function survivingWindows(secret: string, output: string): string[] {
  const windows: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) {
    const window = secret.slice(i, i + 8);
    if (output.includes(window)) windows.push(window);
  }
  return windows;
}
