import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CliRun } from "../helpers/cli.js";

/** Golden output: temp paths and clocks replaced by placeholders, everything else verbatim. */
export function normalize(run: CliRun, replacements: Record<string, string>): CliRun {
  const fix = (text: string) => {
    let out = text;
    for (const [from, to] of Object.entries(replacements).sort((a, b) => b[0].length - a[0].length)) out = out.split(from).join(to);
    return out.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, "<CREATED_AT>");
  };
  return { code: run.code, stdout: fix(run.stdout), stderr: fix(run.stderr) };
}

/** Every file below `dir`, relative paths, sorted. */
export function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir)
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? listFiles(join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]))
    .sort();
}
