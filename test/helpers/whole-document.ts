import { createHash } from "node:crypto";

// A document that proves it is whole: its last line is the SHA-256 of everything before it. The
// crash test's writer child builds these and the test checks them.

/** About 170 KiB of handoff text naming `path`, sealed by its own digest. */
export function wholeDocument(path: string, n: number): Uint8Array {
  const lines = [`# handoff ${n}`, `path: ${path}`];
  for (let i = 0; i < 2_000; i++) lines.push(`- step ${i}: ${createHash("sha256").update(`${n}/${i}`).digest("hex")}`);
  const body = `${lines.join("\n")}\n`;
  return new TextEncoder().encode(`${body}sha256:${createHash("sha256").update(body).digest("hex")}\n`);
}

export function isWholeDocument(text: string): boolean {
  const match = /^([\s\S]*\n)sha256:([0-9a-f]{64})\n$/.exec(text);
  return match !== null && createHash("sha256").update(match[1]!).digest("hex") === match[2];
}
