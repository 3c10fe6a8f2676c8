import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { randomBase64Url } from "../../shared/ids/base64url.js";
import { newHandoffId } from "../../shared/ids/tokens.js";
import { openHandoff } from "../../shared/crypto/envelope.js";
import { parseShareUrl } from "../../shared/api/share-url.js";
import { type CaptureServer, startCaptureServer } from "../helpers/capture-server.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";

// The envelope seals the document's created_at (shared/crypto/frame.ts: an ISO 8601 instant with a
// zone). A document whose created_at the envelope cannot carry is still published: the publish time
// stands in. The server is a real loopback server that answers like the worker's 201; the test opens
// the ciphertext it received with the key from the printed share URL.

const EXPIRES = "2099-01-01T00:00:00.000Z";
let server: CaptureServer;
let base: string;

beforeAll(async () => {
  await ensureBuilt();
  server = await startCaptureServer(() => {
    const id = newHandoffId();
    const retention = { policy: "delete-at-expiry", delete_after: EXPIRES };
    return { status: 201, body: { id, url: `/h/${id}`, expires_at: EXPIRES, max_views: null, scope: "link", owner_token: `hdo_${randomBase64Url(32)}`, retention } };
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "handoff-created-at-"));
  await mkdir(join(base, "home"), { recursive: true });
  server.requests.length = 0;
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function publishAndOpen(document: string): Promise<{ created_at: string; text: string }> {
  const file = join(base, "notes.md");
  await writeFile(file, document);
  const run = await runCli(["publish", file, "--json"], { cwd: base, env: { HOME: join(base, "home"), HANDOFF_SERVER: server.url } });
  expect(run.code, run.stderr).toBe(0);
  const shared = parseShareUrl((JSON.parse(run.stdout) as { url: string }).url);
  if (!shared.ok || shared.value.key === undefined) throw new Error(`no share key in ${run.stdout}`);
  expect(server.requests).toHaveLength(1);
  const opened = await openHandoff(server.requests[0]!.bytes, shared.value.key);
  return { created_at: opened.meta.created_at, text: new TextDecoder().decode(opened.plaintext) };
}

describe("publish: the sealed created_at", () => {
  it("is the document's own when the envelope can carry it", async () => {
    const opened = await publishAndOpen('---\ncreated_at: "2026-07-10T09:30:00+02:00"\ntitle: "Notes"\n---\n# Notes\n');
    expect(opened.created_at).toBe("2026-07-10T09:30:00+02:00");
  });

  it.each([
    ["a date only", "2026-07-10"],
    ["free text", "last Tuesday"],
    ["a leap second", "2016-12-31T23:59:60Z"],
  ])("is the publish time when the document's is %s, and the document keeps its own", async (_what, value) => {
    const before = Date.now();
    const opened = await publishAndOpen(`---\ncreated_at: "${value}"\ntitle: "Notes"\n---\n# Notes\n`);
    expect(opened.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(opened.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(opened.text).toContain(`created_at: "${value}"`);
  });
});
