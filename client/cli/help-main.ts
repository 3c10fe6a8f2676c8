import { commandHelp, mainHelp } from "./help.js";
import { VERSION } from "../lib/version.js";
import { COMMANDS } from "./registry.js";

/**
 * The start-up fast path, bundled alone into dist/help.cjs (one module, no shared chunks):
 * `handoff`, `handoff --help`, `handoff help [CMD]`, `handoff CMD --help` and `--version` print
 * from the declarations without loading the CLI. Anything else returns undefined and bin/handoff.cjs
 * loads the full CLI, which prints the same texts for the same requests.
 */
export function fastText(argv: string[], stdinIsTTY: boolean): string | undefined {
  const [first, second] = argv;
  if (argv.length === 0) return stdinIsTTY ? mainHelp() : undefined;
  if (argv.length === 1 && (first === "--help" || first === "-h" || first === "help")) return mainHelp();
  if (argv.length === 1 && (first === "--version" || first === "-v")) return `${VERSION}\n`;
  const spec = COMMANDS.find((c) => c.spec.name === (first === "help" ? second : first))?.spec;
  if (argv.length === 2 && spec && (first === "help" || second === "--help" || second === "-h")) return commandHelp(spec);
  return undefined;
}
