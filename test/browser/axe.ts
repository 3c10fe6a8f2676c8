// axe-core in a page the browser tests opened: its violations, one line each.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown }[];
}

/** axe-core's violations on the page as it is now, whatever their impact. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // evaluate() runs over the DevTools protocol, outside the page's script-src.
  await page.evaluate(axeSource);
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as { violations: AxeViolation[] };
  return result.violations;
}

/** A violation as one line: what, how bad, and where. */
export const describeViolation = (violation: AxeViolation): string => `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`;
