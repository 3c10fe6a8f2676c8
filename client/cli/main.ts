import { parseArgs } from "node:util";
import { EXIT, type ExitCode, HandoffError, errorBody, exitCodeFor, isHandoffError } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import type { CommandSpec, FlagSpecs, FlagValues, Outcome } from "../commands/command.js";
import { commandHelp, mainHelp, suggestCommands } from "./help.js";
import { type Io, processIo } from "../platform/io.js";
import { jsonForTerminal, terminalSafe } from "../platform/terminal.js";
import { COMMANDS, COMMON_FLAGS, createSpec, VERSION } from "./registry.js";

/**
 * The CLI entry: finds the command, parses its declared flags, runs it, prints its result
 * (`--json`: the result object; otherwise its human text) and turns its outcome into the exit
 * code. Commands return values, never exit numbers; their code loads only when they run.
 */

/** The one map from a finished run (or a failure's reason) to the process exit code. */
export function exitCodeForOutcome(outcome: Outcome): ExitCode {
  if (outcome === "ok") return EXIT.ok;
  // validate's own: a document that cannot be read or parsed is exit 2 (docs/cli.md).
  if (outcome === "unparseable") return EXIT.usage;
  return exitCodeFor(outcome);
}

const byName = new Map<string, CommandSpec>(COMMANDS.map((spec) => [spec.name, spec as unknown as CommandSpec]));

export async function main(argv: string[], io: Io): Promise<ExitCode> {
  const [first, ...rest] = argv;
  const json = argv.includes("--json");
  try {
    // Bare `handoff` on a terminal has no body to capture: it asks for help.
    if (first === undefined && io.stdinIsTTY) return print(io, mainHelp());
    if (first === "--help" || first === "-h" || first === "help") {
      const topic = first === "help" ? rest[0] : undefined;
      if (topic === undefined) return print(io, mainHelp());
      return print(io, commandHelp(commandNamed(topic)));
    }
    if (first === "--version" || first === "-v") return print(io, VERSION);
    // A body on stdin with only flags (or nothing) creates; any other first word must be a command.
    const spec = first === undefined || first.startsWith("-") ? (createSpec as unknown as CommandSpec) : commandNamed(first);
    const args = first === undefined || first.startsWith("-") ? argv : rest;
    const { flags, positionals } = parseFor(spec, args);
    if (flags.help) return print(io, commandHelp(spec));
    checkPositionals(spec, positionals);
    const impl = await spec.load();
    const result = await impl.run({ flags: flags as FlagValues<FlagSpecs>, positionals, io });
    const human = impl.human(result, { json: Boolean(flags.json), color: io.color });
    if (human.err && !flags.quiet) io.err(human.err);
    if (flags.json) io.out(jsonForTerminal(impl.json ? impl.json(result) : result));
    else if (human.out !== undefined) io.out(human.out);
    return exitCodeForOutcome(impl.outcome(result));
  } catch (error) {
    return reportError(error, io, { json, verbose: argv.includes("--verbose") });
  }
}

function print(io: Io, text: string): ExitCode {
  io.out(text);
  return EXIT.ok;
}

function commandNamed(word: string): CommandSpec {
  const spec = byName.get(word);
  if (spec) return spec;
  const near = suggestCommands(word);
  throw new HandoffError("usage", `'${word}' is not a handoff command`, {
    hint: near.length > 0 ? `did you mean: ${near.map((n) => `handoff ${n}`).join(", ")}? ('handoff --help' lists all)` : `run 'handoff --help' for the commands; to write a handoff with a focus, run 'handoff create ${word} ...'`,
  });
}

type ParsedFlags = Record<string, string | boolean | string[] | undefined>;

/** Strict parsing from the declaration: an unknown flag, a missing value or a bad choice is exit 2. */
function parseFor(spec: CommandSpec, args: string[]): { flags: ParsedFlags; positionals: string[] } {
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
  return { flags, positionals: parsed.positionals };
}

function checkPositionals(spec: CommandSpec, positionals: string[]): void {
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

/** Prints an error once: the JSON error body on stdout with --json, a message on stderr always. */
export function reportError(error: unknown, io: Io, opts: { json: boolean; verbose: boolean }): ExitCode {
  const handoffError = isHandoffError(error)
    ? error
    : new HandoffError("internal", `unexpected failure: ${error instanceof Error ? error.message : String(error)}`, {
        hint: "rerun with --verbose and report the output",
        cause: error,
      });
  if (opts.json) io.out(jsonForTerminal(errorBody(handoffError)));
  // Messages quote servers, files and git: shown escaped, never able to drive the terminal (a
  // server's own words were already put on one line by errorFromResponse).
  io.err(`handoff: ${terminalSafe(handoffError.message)}`);
  if (handoffError.hint) io.err(`  ${terminalSafe(handoffError.hint)}`);
  if (opts.verbose && handoffError.cause !== undefined) {
    const cause = handoffError.cause;
    io.err(cause instanceof Error && cause.stack ? cause.stack : String(cause));
  }
  return exitCodeForOutcome(handoffError.reason);
}

export async function runProcess(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
