// Secret redaction: a 1 MiB realistic handoff body against reading and writing the same bytes,
// the byte scan a changes bundle gets against the text scan, and every rule's adversarial 1 MiB
// inputs (the slowest one is what matters).
import { readFileSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTs, medianMs, repoRoot, report } from "./lib/load-ts.js";

const { redactText } = await loadTs("shared/redact/index.ts");
const { scanBytes } = await loadTs("shared/redact/scan-bytes.ts");
const { positiveSamples } = await loadTs("test/fixtures/redact/samples.ts");
const { ADVERSARIAL_CASES, MIB } = await loadTs("test/fixtures/redact/adversarial.ts");

/** Fixture handoffs repeated to 1 MiB, with a secret of some rule every 16 KiB or so. */
function realisticBody() {
  const dir = join(repoRoot, "test/fixtures/redact");
  const docs = readdirSync(dir)
    .filter((name) => /\.(md|json)$/.test(name))
    .map((name) => readFileSync(join(dir, name), "utf8"));
  const samples = positiveSamples(3);
  const parts = [];
  let size = 0;
  for (let i = 0; size < MIB; i++) {
    const part = `${docs[i % docs.length]}\n\n- ${samples[i % samples.length].text}\n\n`;
    parts.push(part);
    size += part.length;
  }
  return parts.join("").slice(0, MIB);
}

const body = realisticBody();
const bytes = new TextEncoder().encode(body);
const dir = await mkdtemp(join(tmpdir(), "handoff-bench-redact-"));
try {
  const file = join(dir, "handoff.md");
  const ioMs = await medianMs(async () => {
    await writeFile(file, bytes);
    await readFile(file);
  });
  const result = redactText(body);
  const redactMs = await medianMs(() => redactText(body));
  report("redact 1 MiB realistic body / fs write+read of the same bytes", redactMs, ioMs);
  console.log(`  ${result.findings.length} findings in ${Object.keys(result.counts).length} rules; redaction costs ${redactMs.toFixed(1)} ms per MiB`);
  // A changes bundle's file is scanned as it decodes (base64 runs, UTF-16, gzip): what that adds.
  const bytesMs = await medianMs(() => scanBytes(bytes, { deadlineMs: 60_000 }), { runs: 7, warmup: 1 });
  report("scanBytes of the same body (decoding base64 runs too) / redactText of it", bytesMs, redactMs);

  const timings = [];
  for (const adversarial of ADVERSARIAL_CASES) {
    const input = adversarial.make(MIB);
    const ms = await medianMs(() => redactText(input, { deadlineMs: 60_000 }), { runs: 5, warmup: 1 });
    timings.push({ name: `${adversarial.rule}: ${adversarial.name}`, ms });
  }
  timings.sort((a, b) => b.ms - a.ms);
  const slowest = timings[0];
  report(`slowest adversarial 1 MiB input (${slowest.name}) / realistic 1 MiB body`, slowest.ms, redactMs);
  console.log(
    `  slowest adversarial: ${slowest.ms.toFixed(1)} ms (${slowest.name}); next: ${timings
      .slice(1, 4)
      .map((t) => `${t.name} ${t.ms.toFixed(1)} ms`)
      .join(", ")}`,
  );
  console.log(`  ${timings.length} adversarial inputs, median of all: ${timings[Math.floor(timings.length / 2)].ms.toFixed(1)} ms`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
