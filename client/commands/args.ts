import { HandoffError } from "../../shared/errors.js";

/** Parses a positive integer flag, naming the flag on failure. */
export function intFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    // The hint names the bound the value missed, never the opposite one.
    const hint = !/^\d+$/.test(value) ? `pass a whole number, like --${name} ${min}` : Number(value) > max ? `pass at most --${name} ${max}` : `pass at least --${name} ${min}`;
    throw new HandoffError("usage", `--${name} must be a whole number from ${min} to ${max}, got '${value}'`, { hint });
  }
  return Number(value);
}
