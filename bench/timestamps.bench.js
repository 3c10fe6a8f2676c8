// timestampMs (shared/time/timestamps.ts) / Date.parse over the 10,000 created_at values one discovery
// run orders, in the shapes tools write (ms and s precision, Z and offsets); goal <= 0.8, since the
// hand-rolled digit reader exists only to be faster than Date.parse. Same answers: checked first.
import { loadTs, medianMs, report } from "./lib/load-ts.js";

const { timestampMs } = await loadTs("shared/time/timestamps.ts");

const start = Date.parse("2026-01-01T00:00:00Z");
const values = Array.from({ length: 10_000 }, (_, i) => {
  const iso = new Date(start + i * 3_607_123).toISOString();
  return i % 4 === 0 ? iso : i % 4 === 1 ? iso.replace(/\.\d{3}Z$/, "Z") : i % 4 === 2 ? `${iso.slice(0, 19)}+02:00` : `${iso.slice(0, 23)}-05:30`;
});
for (const value of values) {
  if (timestampMs(value) !== Date.parse(value)) throw new Error(`timestampMs and Date.parse disagree on ${value}`);
}

let sink = 0;
const pass = (parse) => () => {
  for (let round = 0; round < 20; round++) for (const value of values) sink += parse(value) ?? 0;
};
const parsed = await medianMs(pass(timestampMs), { runs: 21, warmup: 5 });
const baseline = await medianMs(pass(Date.parse), { runs: 21, warmup: 5 });
report("timestampMs x200,000 / Date.parse x200,000", parsed, baseline, { op: "<=", value: 0.8 });
if (sink === 42) console.log("");
