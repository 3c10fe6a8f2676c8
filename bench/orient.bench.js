// What reading a source's content costs (resume's orientation and create's sufficiency verdict,
// issue 33), each as a ratio against a baseline measured in the same run:
// - judging a 1 MiB handoff / the line and heading scan every reading of it needs
//   (splitLines + fencedLines + markdownHeadings), goal <= 6;
// - the same at 4 MiB (linear time: the ratio does not grow; goal <= 6);
// - the slowest of the 1 MiB bodies hostile to a backtracking matcher / the ordinary 1 MiB
//   handoff (goal <= 3: no input shape costs more than a few ordinary readings);
// - a typical 2 KiB handoff x200 / its heading scan x200 (what one create or resume pays).
import { readFileSync } from "node:fs";
import { loadTs, medianMs, report, repoRoot } from "./lib/load-ts.js";

const { judgeSource } = await loadTs("shared/orient/sufficiency.ts");
const { fencedLines, markdownHeadings, splitLines } = await loadTs("shared/text/markdown.ts");
const { SUFFICIENCY_TABLE } = await loadTs("test/shared/orient/sufficiency-table.ts");
const { LARGE_BODIES } = await loadTs("test/shared/orient/large-bodies.ts");

const typical = readFileSync(`${repoRoot}test/fixtures/resume/ce-handoff.md`, "utf8");

/** The table's bodies and the fixture handoff, one after another, to `bytes`. */
function handoffOf(bytes) {
  const parts = [typical.slice(typical.indexOf("# Auth"))];
  for (let i = 0, size = parts[0].length; size < bytes; i++) {
    const part = `\n## Notes ${i}\n\n${SUFFICIENCY_TABLE[i % SUFFICIENCY_TABLE.length].body}`;
    parts.push(part);
    size += part.length;
  }
  return parts.join("");
}

const scan = (body) => {
  const lines = splitLines(body);
  return markdownHeadings(lines, fencedLines(lines));
};
// As resume reads a body without frontmatter (parseSource itself loads the YAML reader, which
// this bundler cannot; what it adds is a regular-expression test of the first bytes).
const judge = (body) => judgeSource({ format: "markdown", body, metadata: {} });

const one = handoffOf(1024 * 1024);
const four = handoffOf(4 * 1024 * 1024);
console.log(`inputs: ${(one.length / 1024).toFixed(0)} KiB and ${(four.length / 1024).toFixed(0)} KiB; verdict ${judge(one).sufficiency.verdict}`);

const judgeOne = await medianMs(() => judge(one));
report("judge 1 MiB handoff / heading scan", judgeOne, await medianMs(() => scan(one)), { op: "<=", value: 6 });
report("judge 4 MiB handoff / heading scan", await medianMs(() => judge(four), { runs: 7 }), await medianMs(() => scan(four), { runs: 7 }), { op: "<=", value: 6 });

let slowest = { name: "", ms: 0 };
for (const { name, body } of LARGE_BODIES) {
  const ms = await medianMs(() => judge(body), { runs: 7, warmup: 1 });
  if (ms > slowest.ms) slowest = { name, ms };
}
report(`slowest hostile 1 MiB body (${slowest.name}) / the 1 MiB handoff`, slowest.ms, judgeOne, { op: "<=", value: 3 });

report(
  "judge 2 KiB handoff x200 / heading scan x200",
  await medianMs(() => {
    for (let i = 0; i < 200; i++) judge(typical);
  }),
  await medianMs(() => {
    for (let i = 0; i < 200; i++) scan(typical);
  }),
);
