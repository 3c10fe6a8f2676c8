import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The public kernel files copied into the repo (test/fixtures/kernel, MIT, see its LICENSE). */
export const KERNEL_FIXTURES = fileURLToPath(new URL("../../fixtures/kernel/", import.meta.url));
export const EXAMPLE_FILE = "example.yaml-skill-unification-2026-07-10.json";

export function fixtureText(name: string): string {
  return readFileSync(`${KERNEL_FIXTURES}${name}`, "utf8");
}

/** A fresh, mutable copy of the real manifest. */
export function exampleManifest(): Record<string, any> {
  return JSON.parse(fixtureText(EXAMPLE_FILE)) as Record<string, any>;
}
