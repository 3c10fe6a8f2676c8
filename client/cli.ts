import { EXIT, HandoffError, errorBody, exitCodeFor, isHandoffError } from "../shared/errors.js";
import { type Io, processIo } from "./io.js";
import { safeForTerminal, stringifyForTerminal } from "../shared/terminal-safe.js";

/**
 * The CLI entry: turns argv into a command name and its arguments and calls the command.
 * Commands are imported lazily so `handoff --help` loads nothing but this file.
 */
export interface Command {
  run(args: string[], io: Io): Promise<number>;
  help: string;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  create: () => import("./commands/create.js"),
  resume: () => import("./commands/resume.js"),
  publish: () => import("./commands/publish.js"),
  revoke: () => import("./commands/revoke.js"),
  published: () => import("./commands/published.js"),
  validate: () => import("./commands/validate.js"),
  render: () => import("./commands/render.js"),
  scan: () => import("./commands/scan.js"),
  context: () => import("./commands/context.js"),
  guard: () => import("./commands/guard.js"),
  checkpoint: () => import("./commands/checkpoint.js"),
  mcp: () => import("./commands/mcp.js"),
  "install-skill": () => import("./commands/install-skill.js"),
};

export const VERSION = "0.1.0";

export const MAIN_HELP = `handoff ${VERSION}: carry an AI coding session's context to the next session, machine or teammate.

Usage: handoff [command] [options]

Commands:
  create [FOCUS...]      Write a handoff (the default when no command is given).
                         Body from --body-file F or stdin; --title, --summary, --keyword K,
                         --to PATH, --format ce|kernel, --pin PATH, --json.
  resume [SOURCE|KEYWORDS...]
                         With a file, '-' or URL: orient from it (objective, state, drift).
                         Without: shortlist likely handoffs from the managed store; selects nothing.
  publish FILE           Encrypt and publish; prints an access-limited share URL
                         (--expires 12h, --max-views N, --scope link|team, --server URL).
  revoke URL|ID          Revoke a link you published from this machine.
  published              List what you published and its state.
  validate FILE          Check a handoff or kernel manifest against its contract.
  render FILE.json       Render a kernel manifest to Markdown (never authoritative).
  scan FILE|-            Preview secret redaction: per rule the count and lines, never the secret.
  context MANIFEST       Compile a kernel manifest's context selectors into a bounded bundle;
                         --activate arms the context guard, --deactivate disarms it.
  guard                  PreToolUse hook: enforce the active manifest's sealed/bounded context.
  checkpoint             Write a kernel.checkpoint/v1 of resumed work (provenance, phases).
  mcp                    Serve create, publish, discover, orient, validate, context and
                         checkpoint to an agent over MCP (stdio).
  install-skill          Install the handoff skill for Claude Code or Codex.

Run 'handoff <command> --help' for a command's options. Exit codes: 0 ok, 1 invalid input or
nothing found, 2 usage error, 3 operational failure (I/O, network). See docs/cli.md.
`;

export async function main(argv: string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--help" || first === "-h" || first === "help") {
    io.out(MAIN_HELP);
    return EXIT.ok;
  }
  if (first === "--version" || first === "-v") {
    io.out(VERSION);
    return EXIT.ok;
  }
  // A bare invocation, or one that starts with a flag or a focus word, creates a handoff.
  const isCommand = first !== undefined && Object.hasOwn(COMMANDS, first);
  const name = isCommand ? first : "create";
  const args = isCommand ? rest : argv;
  const json = args.includes("--json");
  const verbose = args.includes("--verbose");
  try {
    const command = await COMMANDS[name]!();
    if (args.includes("--help") || args.includes("-h")) {
      io.out(command.help);
      return EXIT.ok;
    }
    return await command.run(args, io);
  } catch (error) {
    return reportError(error, io, { json, verbose });
  }
}

/** Prints an error once: the JSON error body on stdout with --json, a message on stderr always. */
export function reportError(error: unknown, io: Io, opts: { json: boolean; verbose: boolean }): number {
  const handoffError = isHandoffError(error)
    ? error
    : new HandoffError("internal", `unexpected failure: ${error instanceof Error ? error.message : String(error)}`, {
        hint: "rerun with --verbose and report the output",
        cause: error,
      });
  if (opts.json) io.out(stringifyForTerminal(errorBody(handoffError)));
  // Messages quote servers, files and git: shown escaped, never able to drive the terminal (a
  // server's own words were already put on one line by errorFromResponse).
  io.err(`handoff: ${safeForTerminal(handoffError.message)}`);
  if (handoffError.hint) io.err(`  ${safeForTerminal(handoffError.hint)}`);
  if (opts.verbose && handoffError.cause !== undefined) {
    const cause = handoffError.cause;
    io.err(cause instanceof Error && cause.stack ? cause.stack : String(cause));
  }
  return exitCodeFor(handoffError.reason);
}

export async function runProcess(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
