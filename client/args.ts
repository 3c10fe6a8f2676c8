import { parseArgs, type ParseArgsConfig } from "node:util";
import { HandoffError } from "../shared/errors.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Flags every command understands. */
export const COMMON_OPTIONS = {
  json: { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

/**
 * Strict flag parsing: an unknown flag or a missing value is a usage error (exit 2) that names
 * the flag and points at `--help`, never a silent ignore.
 */
export function parseCommandArgs<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (cause) {
    const message = cause instanceof Error ? cause.message.replace(/\. To specify a positional argument.*$/s, "") : String(cause);
    throw new HandoffError("usage", `handoff ${command}: ${message}`, {
      hint: `run 'handoff ${command} --help' for the flags it takes`,
      cause,
    });
  }
}

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
