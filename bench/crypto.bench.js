// Cost of end-to-end encryption against what a local create already pays: writing the handoff
// privately (temp file + fsync + rename). Goal: sealing adds less than one local write.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTs, medianMs, report } from "./lib/load-ts.js";

const { sealHandoff, openHandoff } = await loadTs("shared/crypto/envelope.ts");
const { replaceFile } = await loadTs("client/platform/fs.ts");

const meta = { format: "ce-handoff/v1", file_name: "bench.md", created_at: "2026-05-01T10:00:00Z" };
const dir = mkdtempSync(join(tmpdir(), "handoff-crypto-bench-"));
try {
  for (const [label, size] of [
    ["20 KiB", 20 * 1024],
    ["1 MiB", 1024 * 1024],
  ]) {
    const body = new Uint8Array(size).map((_, i) => 32 + (i % 90));
    const sealed = await sealHandoff(body, meta);
    let n = 0;
    const write = await medianMs(() => replaceFile(join(dir, `h${n++ % 4}.md`), body));
    const seal = await medianMs(() => sealHandoff(body, meta));
    const open = await medianMs(() => openHandoff(sealed.ciphertext, sealed.key));
    const digest = await medianMs(() => crypto.subtle.digest("SHA-256", body));
    console.log(`${label}: envelope ${sealed.ciphertext.length} bytes for a ${size}-byte body (+${sealed.ciphertext.length - size})`);
    report(`seal ${label} / private local write`, seal, write, { op: "<=", value: 1 });
    report(`open ${label} / private local write`, open, write, { op: "<=", value: 1 });
    report(`seal ${label} / SHA-256 of the body`, seal, digest);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
