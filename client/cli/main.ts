import { EXIT, type ExitCode, HandoffError, errorBody, exitCodeFor, isHandoffError } from "../../shared/errors.js";
import type { BoundCommand, Outcome } from "../commands/command.js";
import { createRunContext, type RunContext } from "../lib/run-context.js";
import { VERSION } from "../lib/version.js";
import { type Io, processIo } from "../platform/io.js";
import { jsonForTerminal, oneLine, terminalSafe } from "../platform/terminal.js";
import { commandHelp, mainHelp, suggestCommands } from "./help.js";
import { checkPositionals, parseFor } from "./parse.js";
import { COMMANDS, DEFAULT_COMMAND } from "./registry.js";

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

const byName = new Map<string, BoundCommand>(COMMANDS.map((command) => [command.spec.name, command]));

export async function main(argv: string[], io: Io, ctx: RunContext = createRunContext({ cwd: io.cwd, env: io.env, progress: io.progress })): Promise<ExitCode> {
  const [first, ...rest] = argv;
  const json = argv.includes("--json");
  try {
    // Bare `handoff` on a terminal has no body to capture: it asks for help.
    if (first === undefined && io.stdinIsTTY) return print(io, mainHelp());
    if (first === "--help" || first === "-h" || first === "help") {
      const topic = first === "help" ? rest[0] : undefined;
      if (topic === undefined) return print(io, mainHelp());
      return print(io, commandHelp(commandNamed(topic).spec));
    }
    if (first === "--version" || first === "-v") return print(io, VERSION);
    // A body on stdin with only flags (or nothing) creates; any other first word must be a command.
    const command = first === undefined || first.startsWith("-") ? DEFAULT_COMMAND : commandNamed(first);
    const { spec } = command;
    const args = first === undefined || first.startsWith("-") ? argv : rest;
    const { flags, positionals } = parseFor(spec, args);
    if (flags.help) return print(io, commandHelp(spec));
    checkPositionals(spec, positionals);
    const run = await command.load();
    const finished = await run({ flags, positionals, io, ctx });
    printWarnings(io, ctx);
    const human = finished.human({ json: Boolean(flags.json), color: io.color });
    if (human.err && !flags.quiet) io.err(human.err);
    if (flags.json) io.out(jsonForTerminal(finished.json));
    else if (human.out !== undefined) io.out(human.out);
    return exitCodeForOutcome(finished.outcome);
  } catch (error) {
    printWarnings(io, ctx);
    return reportError(error, io, { json, verbose: argv.includes("--verbose") });
  }
}

/** What library code reported during the run, each once, in order (a token file others can read...). */
function printWarnings(io: Io, ctx: RunContext): void {
  for (const warning of ctx.takeWarnings()) io.err(`warning: ${oneLine(warning)}`);
}

function print(io: Io, text: string): ExitCode {
  io.out(text);
  return EXIT.ok;
}

function commandNamed(word: string): BoundCommand {
  const spec = byName.get(word);
  if (spec) return spec;
  const near = suggestCommands(word);
  throw new HandoffError("usage", `'${word}' is not a handoff command`, {
    hint:
      near.length > 0
        ? `did you mean: ${near.map((n) => `handoff ${n}`).join(", ")}? ('handoff --help' lists all)`
        : `run 'handoff --help' for the commands; to write a handoff with a focus, run 'handoff create ${word} ...'`,
  });
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
