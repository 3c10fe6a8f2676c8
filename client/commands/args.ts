import { HandoffError } from "../../shared/errors.js";

/** Parses a positive integer flag, naming the flag on failure. */
export function intFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new HandoffError("usage", `--${name} must be a whole number from ${min} to ${max}, got '${value}'`, {
      hint: `pass --${name} ${min}`,
    });
  }
  return Number(value);
}
