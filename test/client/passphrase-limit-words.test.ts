import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newShareKey } from "../../shared/crypto/key.js";
import { errorBody, httpStatusFor } from "../../shared/errors.js";
import { newHandoffId } from "../../shared/ids/tokens.js";
import { PASSPHRASE_LOCK_AFTER, PASSPHRASE_SLOW_AFTER, type PassphraseLimit } from "../../worker/durable/access-state.js";
import { accessDenied } from "../../worker/handlers/access-errors.js";
import { type Answer, type CaptureServer, startCaptureServer } from "../helpers/capture-server.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";

// How `resume` words a passphrase link the server slowed down or locked, and what it says to do
// next. The answers are the worker's own (its `accessDenied` and the one error body), served from
// a local listener so the state they describe needs no minutes of wrong tries; the worker tier
// (test/worker/passphrase-limit.test.ts) holds the server to giving them.

beforeAll(ensureBuilt, 120_000);

/** The worker's answer to a read refused for `reason`, as its one error path sends it (status, Retry-After, body). */
function workerAnswer(reason: "passphrase_slowed" | "passphrase_locked", limit: PassphraseLimit, now: number): Answer {
  const error = accessDenied({ ok: false, reason, limit, now });
  const retryAfter = error.details?.retry_after;
  return { status: httpStatusFor(error.reason), body: errorBody(error), ...(retryAfter === undefined ? {} : { headers: { "retry-after": String(retryAfter) } }) };
}

let server: CaptureServer;
let answer: Answer;
let base: string;
beforeAll(async () => {
  server = await startCaptureServer((request) => (request.url.endsWith("/meta") ? { status: 500 } : answer));
  base = await mkdtemp(join(tmpdir(), "handoff-passphrase-limit-"));
  await mkdir(join(base, "home"), { recursive: true, mode: 0o700 });
});
afterAll(async () => {
  await server?.close();
  await rm(base, { recursive: true, force: true });
});

const resume = (url: string, passphrase: string) => runCli(["resume", "--url-stdin", "--passphrase"], { cwd: base, env: { HOME: join(base, "home") }, input: `${url}\n${passphrase}\n` });

describe("resume, on a passphrase link the server limits", () => {
  it("slowed down: not judged, no view spent, wait the seconds it says and run the same command again", async () => {
    const now = Date.now();
    answer = workerAnswer("passphrase_slowed", { wrong: PASSPHRASE_SLOW_AFTER + 2, judge_after: now + 4_000, locked_at: null }, now);
    const run = await resume(`${server.url}/h/${newHandoffId()}#${newShareKey()}`, "the right one, maybe");
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`this share link is slowed down after ${PASSPHRASE_SLOW_AFTER + 2} wrong passphrases: this try was not judged, and no view was spent`);
    expect(run.stderr).toMatch(/wait 4 seconds, then run the same command again/);
  });

  it("locked: no view spent, and the next step is the owner's reset or a new link", async () => {
    const now = Date.now();
    answer = workerAnswer("passphrase_locked", { wrong: PASSPHRASE_LOCK_AFTER, judge_after: null, locked_at: now }, now);
    const run = await resume(`${server.url}/h/${newHandoffId()}#${newShareKey()}`, "another guess");
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`this share link is locked after ${PASSPHRASE_LOCK_AFTER} wrong passphrases`);
    expect(run.stderr).toMatch(/ask the sender to reset it \('handoff published --unlock <id>'\) or to revoke it and send you a new link/);
    const json = await runCli(["resume", "--url-stdin", "--passphrase", "--json"], {
      cwd: base,
      env: { HOME: join(base, "home") },
      input: `${server.url}/h/${newHandoffId()}#${newShareKey()}\nanother guess\n`,
    });
    expect(json.code).toBe(3);
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe("locked");
  });
});
