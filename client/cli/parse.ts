import { parseArgs } from "node:util";
import { HandoffError } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import type { CommandSpec, FlagSpecs, ParsedFlags } from "../commands/command.js";
import { COMMON_FLAGS } from "../commands/flags.js";

/**
 * Flags and positionals, parsed strictly from a command's declaration: an unknown flag, a missing
 * value, a bad choice, a missing required flag or a broken `requires`/`conflicts` relation is a
 * usage error (exit 2) that names the flag, before any of the command's code loads.
 */

export function parseFor(spec: CommandSpec, args: string[]): { flags: ParsedFlags; positionals: string[] } {
  const declared: FlagSpecs = { ...spec.flags, ...COMMON_FLAGS };
  const options = Object.fromEntries(
    Object.entries(declared).map(([name, flag]) => [name, { type: flag.type, ...(flag.short ? { short: flag.short } : {}), ...(flag.multiple ? { multiple: true } : {}) }]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (cause) {
    const message = cause instanceof Error ? cause.message.replace(/\. To specify a positional argument.*$/s, "") : String(cause);
    // Ids the server issued before it stopped drawing a leading '-' still exist (1 in 64 of them).
    const dashId = args.find((arg) => arg.startsWith("-") && isHandoffId(arg));
    const hint = dashId ? `a handoff id that starts with '-' goes after '--': handoff ${spec.name} -- ${dashId}` : `run 'handoff ${spec.name} --help' for the flags it takes`;
    throw new HandoffError("usage", `handoff ${spec.name}: ${message}`, { hint, cause });
  }
  const flags = parsed.values as ParsedFlags;
  for (const [name, flag] of Object.entries(declared)) {
    const value = flags[name];
    if (flag.choices && typeof value === "string" && !flag.choices.includes(value)) {
      throw new HandoffError("usage", `--${name} must be ${flag.choices.join(" or ")}, got '${value}'`, { hint: `pass --${name} ${flag.choices[0]}` });
    }
  }
  if (!flags.help) checkRelations(spec, flags);
  return { flags, positionals: parsed.positionals };
}

/** `name` or `name=value`: is it given (with that value)? */
function holds(flags: ParsedFlags, relation: string): boolean {
  const [name, value] = relation.split("=") as [string, string | undefined];
  const given = flags[name];
  return value === undefined ? given !== undefined : given === value;
}

const label = (relation: string) => `--${relation.replace("=", " ")}`;

function checkRelations(spec: CommandSpec, flags: ParsedFlags): void {
  for (const [name, flag] of Object.entries(spec.flags)) {
    const given = flags[name] !== undefined;
    if (flag.required && !given) {
      throw new HandoffError("usage", `handoff ${spec.name} needs --${name}${flag.value ? ` ${flag.value}` : ""}`, { hint: `run 'handoff ${spec.name} --help' for what it takes` });
    }
    if (!given) continue;
    for (const other of flag.conflicts ?? []) {
      if (holds(flags, other)) throw new HandoffError("usage", `--${name} and ${label(other)} do not go together`, { hint: "pass one of them, not both" });
    }
    for (const needed of flag.requires ?? []) {
      if (!holds(flags, needed)) throw new HandoffError("usage", `--${name} goes with ${label(needed)}`, { hint: `add ${label(needed)}, or drop --${name}` });
    }
  }
}

export function checkPositionals(spec: CommandSpec, positionals: string[]): void {
  const { min, max, missing } = spec.positionals;
  if (positionals.length < min) {
    throw new HandoffError("usage", `handoff ${spec.name} needs ${missing ?? spec.args}`, { hint: `run 'handoff ${spec.name} ${spec.args}'` });
  }
  if (positionals.length > max) {
    const extra = positionals.slice(max).join(" ");
    throw new HandoffError("usage", max === 0 ? `handoff ${spec.name} takes no arguments, got '${extra}'` : `handoff ${spec.name} takes ${max === 1 ? "one " : ""}${spec.args}, got extra '${extra}'`, {
      hint: `run 'handoff ${spec.name} --help'`,
    });
  }
}
