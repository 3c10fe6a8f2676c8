import type { ErrorReason } from "../../shared/errors.js";
import type { Io } from "../platform/io.js";
import type { RunContext } from "../lib/run-context.js";

/**
 * What a command is, as data (`commands/<name>/spec.ts`), and what implements it
 * (`commands/<name>/run.ts`). A declaration is cheap to load: `handoff --help`, the docs tables
 * and shell completion read it without importing any command's code. The implementation is
 * loaded only when the command runs, through the registry's `bind(spec, loader)`.
 */
export interface FlagSpec {
  type: "string" | "boolean";
  description: string;
  /** The value's placeholder in help, e.g. "D" for `--expires D`. */
  value?: string;
  short?: string;
  multiple?: boolean;
  /** Values a shell may complete, and the only ones accepted. */
  choices?: readonly string[];
  /** The command refuses to run without this flag (a usage error that names it). */
  required?: boolean;
  /** Flags this one needs: "publish", or "format=kernel" for a flag with that value. */
  requires?: readonly string[];
  /** Flags this one does not go with (checked both ways). */
  conflicts?: readonly string[];
}

export type FlagSpecs = Record<string, FlagSpec>;

/** The parsed value of each declared flag, typed from its declaration. */
export type FlagValues<F extends FlagSpecs> = {
  [K in keyof F]?: F[K]["type"] extends "boolean" ? boolean : F[K]["multiple"] extends true ? string[] : string;
} & CommonFlags;

export interface CommonFlags {
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** The exit codes a command can give, one phrase each; help prints them and a test holds runs to them. */
export type Exits = Partial<Record<0 | 1 | 2 | 3, string>>;

export interface CommandSpec<F extends FlagSpecs = FlagSpecs> {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The positional part of the usage line, e.g. "FILE" or "[FOCUS...]". */
  args: string;
  /** How many positionals the command takes, and what to call the missing one. */
  positionals: { min: number; max: number; missing?: string };
  /** Prose shown in help under the usage line. */
  description: string;
  flags: F;
  /** The outcomes the command can end with, by exit code. */
  exits: Exits;
  /** Extra help paragraphs after the flags (environment, defaults). */
  notes?: string;
}

export interface CommandInput<F extends FlagSpecs> {
  flags: FlagValues<F>;
  positionals: string[];
  io: Io;
  ctx: RunContext;
}

export interface HumanView {
  json: boolean;
  /** Colour allowed on stdout: a terminal, NO_COLOR unset, FORCE_COLOR not 0. */
  color: boolean;
}

/** Text for people, split by stream: `out` is data (skipped under --json), `err` messages. */
export interface HumanOutput {
  out?: string;
  err?: string;
}

/**
 * "ok", or the error reason that classifies a finished run (nothing found, secrets found, an
 * invalid document). "unparseable" is validate's own: the input could not be read as a document.
 */
export type Outcome = "ok" | ErrorReason | "unparseable";

/** One command's code, typed by its declaration `S` (so a loader that brings another's fails to compile). */
export interface CommandImpl<S extends CommandSpec<FlagSpecs>, R> {
  /** Never set: ties the implementation to its declaration's type. */
  readonly spec?: S;
  run(input: CommandInput<S["flags"]>): Promise<R>;
  human(result: R, view: HumanView): HumanOutput;
  outcome(result: R): Outcome;
  /** The --json document when it is not the result itself (a documented shape to keep). */
  json?(result: R): unknown;
}

/** A finished run, with its result type erased: what the CLI prints and how it exits. */
export interface FinishedRun {
  outcome: Outcome;
  human(view: HumanView): HumanOutput;
  json: unknown;
}

/** Flags as the CLI's parser gives them: parsed from the declaration, so they have its types. */
export type ParsedFlags = Record<string, string | boolean | string[] | undefined>;

/** A declaration bound to its lazily loaded implementation: the registry's entries. */
export interface BoundCommand {
  spec: CommandSpec;
  load(): Promise<(input: Omit<CommandInput<FlagSpecs>, "flags"> & { flags: ParsedFlags }) => Promise<FinishedRun>>;
}

/** Declares a command; the identity function that keeps the declaration's literal types. */
export function defineCommand<const S extends CommandSpec<FlagSpecs>>(spec: S): S {
  return spec;
}

/** Typed implementation for a declaration: `implement<typeof createSpec>()({ run, human, outcome })`. */
export function implement<S extends CommandSpec<FlagSpecs>>() {
  return <R>(impl: CommandImpl<S, R>): CommandImpl<S, R> => impl;
}

/**
 * Binds a declaration to the loader of its implementation. `load` must bring a `command`
 * implemented for this very declaration, so a copy-pasted loader that imports another command's
 * run.ts fails to typecheck.
 */
export function bind<S extends CommandSpec<FlagSpecs>, R>(spec: S, load: () => Promise<{ command: CommandImpl<S, R> }>): BoundCommand {
  return {
    spec,
    load: async () => {
      const { command } = await load();
      return async (input) => {
        // The one place parsed flags meet their declared types: the parser read them from `spec`.
        const result = await command.run({ ...input, flags: input.flags as FlagValues<S["flags"]> });
        return { outcome: command.outcome(result), human: (view) => command.human(result, view), json: command.json ? command.json(result) : result };
      };
    },
  };
}
