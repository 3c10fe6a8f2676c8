import type { ErrorReason } from "../../shared/errors.js";
import type { Io } from "../platform/io.js";

/**
 * What a command is, as data. The declaration (this shape minus the implementation) is cheap to
 * load: `handoff --help`, the docs tables and shell completion read it without importing any
 * command's code. The implementation is loaded only when the command runs.
 */
export interface FlagSpec {
  type: "string" | "boolean";
  description: string;
  /** The value's placeholder in help, e.g. "D" for `--expires D`. */
  value?: string;
  short?: string;
  multiple?: boolean;
  /** Values a shell may complete, and the only ones accepted when `strict` is set. */
  choices?: readonly string[];
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

export interface CommandSpec<F extends FlagSpecs = FlagSpecs> {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The positional part of the usage line, e.g. "FILE" or "[FOCUS...]". */
  args: string;
  /** How many positionals the command takes. */
  positionals: { min: number; max: number; missing?: string };
  /** Prose shown in help under the usage line. */
  description: string;
  flags: F;
  /** Exit codes, one phrase per code that the command can give. */
  exits: Partial<Record<0 | 1 | 2 | 3, string>>;
  /** Extra help paragraphs after the flags (environment, defaults). */
  notes?: string;
  load(): Promise<LoadedCommand>;
}

export interface CommandInput<F extends FlagSpecs> {
  flags: FlagValues<F>;
  positionals: string[];
  io: Io;
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

// biome-ignore lint/suspicious/noExplicitAny: each implementation has its own result type.
export interface CommandImpl<F extends FlagSpecs = FlagSpecs, R = any> {
  run(input: CommandInput<F>): Promise<R>;
  human(result: R, view: HumanView): HumanOutput;
  outcome(result: R): Outcome;
  /** The --json document when it is not the result itself (a documented shape to keep). */
  json?(result: R): unknown;
}

/** What `load` gives: an implementation, typed loosely so declarations need not import it. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds implementations of every flag shape.
export type LoadedCommand = CommandImpl<any, any>;

/** Declares a command; the identity function that lets TypeScript infer the flag types. */
export function defineCommand<const F extends FlagSpecs>(spec: CommandSpec<F>): CommandSpec<F> {
  return spec;
}

/** Typed implementation for a declaration: `implement<typeof createSpec>()({ run, human, outcome })`. */
export function implement<S extends CommandSpec<FlagSpecs>>() {
  return <R>(impl: CommandImpl<S["flags"], R>): CommandImpl<S["flags"], R> => impl;
}
