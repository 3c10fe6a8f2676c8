import type { Verdict } from "../../../shared/orient/sufficiency.js";

export const MIB = 1024 * 1024;
const fill = (unit: string, bytes = MIB) => unit.repeat(Math.ceil(bytes / unit.length));

/**
 * Bodies of 1 MiB, ordinary and hostile to a matcher that backtracks: the scale test reads each
 * through, and bench/orient.bench.js times them against the ordinary one.
 */
export const LARGE_BODIES: { name: string; body: string; verdict: Verdict }[] = [
  {
    name: "a structured handoff padded with progress",
    body: `# Port the lexer\n\n## Progress\n${fill("- moved one more token type to the new lexer\n")}\n## Status\nStrings work; comments do not.\n`,
    verdict: "sufficient",
  },
  { name: "one line of label runs", body: `Goal: ship the parser. ${fill("Status: red. ")}`, verdict: "sufficient" },
  { name: "a label on every line", body: fill("- Next: write one more test\n"), verdict: "unsure" },
  { name: "one line of prose with no sentence end", body: fill("we are working on the lexer and it fails "), verdict: "unsure" },
  { name: "prose, sentence after sentence", body: fill("I'm porting the lexer. It fails on tabs. Next I'll fix it. "), verdict: "sufficient" },
  { name: "one token: a word, punctuation, a word", body: `word${"!".repeat(MIB)}word`, verdict: "unsure" },
  { name: "one dotted token", body: `${fill("a.")}md`, verdict: "insufficient" },
  { name: "colons without labels", body: fill(":"), verdict: "insufficient" },
  { name: "bold markers", body: fill("**"), verdict: "insufficient" },
  { name: "separators a label could follow", body: `Goal: x${fill(". ;")}`, verdict: "insufficient" },
  { name: "indentation before a label", body: `${" ".repeat(MIB)}Status: red`, verdict: "unsure" },
  { name: "blank lines", body: fill("\n"), verdict: "insufficient" },
  { name: "a checklist", body: `# Release the CLI\n${fill("- [x] one more step done\n")}`, verdict: "sufficient" },
];
