import { describe, expect, it } from "vitest";
import { parseSource } from "../../../shared/orient/source.js";
import { judgeSource } from "../../../shared/orient/sufficiency.js";

const MIB = 1024 * 1024;
const fill = (unit: string, bytes = MIB) => unit.repeat(Math.ceil(bytes / unit.length));

/**
 * Bodies of 1 MiB, ordinary and hostile, read through. Nothing here is timed (the machine is
 * shared); a matcher that backtracks quadratically on one of them takes minutes, and the
 * timeout turns that into a failure. bench/orient.bench.js measures the cost as ratios.
 */
describe("sufficiency on 1 MiB bodies", () => {
  it.each([
    {
      name: "a structured handoff padded with progress",
      body: `# Port the lexer\n\n## Progress\n${fill("- moved one more token type to the new lexer\n")}\n## Status\nStrings work; comments do not.\n`,
      verdict: "sufficient",
    },
    { name: "one line of label runs", body: `Goal: ship the parser. ${fill("Status: red. ")}`, verdict: "sufficient" },
    { name: "a label on every line", body: fill("- Next: write one more test\n"), verdict: "unsure" },
    { name: "one line of prose with no sentence end", body: fill("we are working on the lexer and it fails "), verdict: "unsure" },
    { name: "prose, sentence after sentence", body: fill("I'm porting the lexer. It fails on tabs. Next I'll fix it. "), verdict: "sufficient" },
    { name: "one token: a word, punctuation, a word", body: `word${"!".repeat(MIB)}word`, verdict: "insufficient" },
    { name: "one dotted token", body: `${fill("a.")}md`, verdict: "insufficient" },
    { name: "colons without labels", body: fill(":"), verdict: "insufficient" },
    { name: "bold markers", body: fill("**"), verdict: "insufficient" },
    { name: "separators a label could follow", body: `Goal: x${fill(". ;")}`, verdict: "insufficient" },
    { name: "indentation before a label", body: `${" ".repeat(MIB)}Status: red`, verdict: "unsure" },
    { name: "blank lines", body: fill("\n"), verdict: "insufficient" },
    { name: "a checklist", body: `# Release the CLI\n${fill("- [x] one more step done\n")}`, verdict: "sufficient" },
  ])("$name", ({ body, verdict }) => {
    expect(body.length).toBeGreaterThanOrEqual(MIB);
    const { orientation, sufficiency } = judgeSource(parseSource(body));
    expect(sufficiency.verdict).toBe(verdict);
    // What it yields stays bounded, whatever it read.
    expect(orientation.objective?.length ?? 0).toBeLessThanOrEqual(2000);
    expect(orientation.current_state?.length ?? 0).toBeLessThanOrEqual(2000);
    expect(orientation.progress.length + orientation.unfinished.length).toBeLessThanOrEqual(100);
  }, 60_000);
});
