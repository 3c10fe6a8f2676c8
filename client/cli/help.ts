import type { CommandSpec, FlagSpec, FlagSpecs } from "../commands/command.js";
import { COMMON_FLAGS } from "../commands/flags.js";
import { VERSION } from "../lib/version.js";
import { COMMANDS as BOUND } from "./registry.js";

const COMMANDS = BOUND.map((c) => c.spec);

/**
 * Help text and docs tables, generated from the command declarations: nothing here is written by
 * hand per command, so `--help`, docs/cli.md and the parser cannot disagree.
 */

function flagLabel(name: string, flag: FlagSpec): string {
  const long = `--${name}${flag.type === "string" ? ` ${flag.value ?? "VALUE"}` : ""}`;
  return flag.short ? `-${flag.short}, ${long}` : long;
}

function flagRows(flags: FlagSpecs): string[] {
  const entries = Object.entries(flags);
  const width = Math.max(...entries.map(([name, flag]) => flagLabel(name, flag).length)) + 2;
  return entries.map(([name, flag]) => `  ${flagLabel(name, flag).padEnd(width)}${wrap(flag.description, WIDTH - 2 - width).join(`\n${" ".repeat(width + 2)}`)}`);
}

const WIDTH = 100;

/** Greedy word wrap to `width` columns. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

export function usageLine(spec: CommandSpec): string {
  return `handoff ${spec.name}${spec.args ? ` ${spec.args}` : ""}${Object.keys(spec.flags).length > 0 ? " [options]" : ""}`;
}

/** `handoff <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [`Usage: ${usageLine(spec)}`, "", spec.description, ""];
  if (Object.keys(spec.flags).length > 0) lines.push("Options:", ...flagRows(spec.flags), "");
  lines.push("Common options:", ...flagRows(COMMON_FLAGS), "");
  if (spec.notes) lines.push(spec.notes, "");
  const exits = Object.entries(spec.exits).map(([code, words]) => `${code} ${words}`);
  lines.push(`Exit codes: ${exits.join("; ")}.`);
  return `${lines.join("\n")}\n`;
}

/** `handoff --help`. */
export function mainHelp(): string {
  const heads = COMMANDS.map((c) => `${c.name}${c.args ? ` ${c.args}` : ""}`);
  const width = 22;
  return `handoff ${VERSION}: carry an AI coding session's context to the next session, machine or teammate.

Usage: handoff <command> [options]
       handoff [options] < body.md      (create, when stdin is not a terminal)

Commands:
${COMMANDS.map((c, i) => (heads[i]!.length < width ? `  ${heads[i]!.padEnd(width)}${c.summary}` : `  ${heads[i]}\n  ${" ".repeat(width)}${c.summary}`)).join("\n")}

Options:
  -h, --help     Show this help; 'handoff <command> --help' shows a command's options.
  -v, --version  Print the version.

Exit codes: 0 ok, 1 invalid input or nothing found, 2 usage error, 3 operational failure (I/O,
network). See docs/cli.md.
`;
}

const cell = (text: string) => text.replace(/\|/g, "\\|");

/**
 * The Markdown flag table of one command, as docs/cli.md holds it between its markers.
 * @internal Its caller is the docs check (test/client/cli-docs.test.ts), which regenerates and compares them.
 */
export function flagTable(spec: CommandSpec): string {
  const rows = Object.entries(spec.flags).map(([name, flag]) => `| \`${flagLabel(name, flag)}\` | ${cell(flag.description)}${flag.multiple ? " (repeatable)" : ""} |`);
  const exits = Object.entries(spec.exits)
    .map(([code, words]) => `${code} ${words}`)
    .join("; ");
  return ["| flag | meaning |", "| --- | --- |", ...rows, `| common | \`--json\`, \`--quiet\`, \`--verbose\`, \`--help\` |`, "", `Exit codes: ${cell(exits)}.`].join("\n");
}

/** The nearest command names to a mistyped one: one or two edits, or a shared prefix. */
export function suggestCommands(word: string): string[] {
  const names: string[] = COMMANDS.map((c) => c.name);
  return names.filter((name) => editDistance(word, name) <= 2 || (word.length >= 3 && name.startsWith(word)));
}

function editDistance(a: string, b: string): number {
  // Optimal string alignment: a swap of two neighbours ("resmue") counts as one edit.
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
