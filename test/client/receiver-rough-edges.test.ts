import { describe, expect, it } from "vitest";
import { intFlag } from "../../client/commands/args.js";
import { expiresInWords, shareWarnings } from "../../client/ops/publish/publish-file.js";
import { isTask } from "../../client/ops/orient/orient.js";
import { parseShareKey } from "../../shared/crypto/key.js";
import { parseDuration } from "../../shared/time/duration.js";
import { MISSING_EXPLANATION } from "../../shared/orient/extract.js";
import { runCli } from "../helpers/cli.js";

// Issue 24's rough edges, each as a new user hit it.

const caught = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error as { message: string; hint?: string };
  }
  throw new Error("expected an error");
};

describe("the rough edges a new user hit", () => {
  it("2: a non-canonical 43-character key says it was changed, not that it has the wrong length", () => {
    const result = parseShareKey("B".repeat(43));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^bad key format: the 43 characters after '#' are not a canonical base64url key/);
    const short = parseShareKey("B".repeat(41));
    expect(!short.ok && short.error.message).toBe("bad key format: expected 43 base64url characters after '#', got 41 characters");
  });

  it("3: an out-of-range value is hinted towards the bound it missed", () => {
    expect(caught(() => intFlag("max-views", "5000", 1, 1000)).hint).toBe("pass at most --max-views 1000");
    expect(caught(() => intFlag("max-views", "0", 1, 1000)).hint).toBe("pass at least --max-views 1");
    expect(caught(() => intFlag("max-views", "many", 1, 1000)).hint).toBe("pass a whole number, like --max-views 1");
  });

  it("4: prune --older-than 0s gives prune's reason, not a link's", () => {
    expect(caught(() => parseDuration("0s", "--older-than", "prune removes handoffs older than an age of at least one second")).message).not.toMatch(/link/);
    expect(caught(() => parseDuration("0s")).message).toMatch(/a link needs at least one second to live/);
  });

  it("6: a server's expires_in bounds come back as durations", () => {
    expect(expiresInWords("expires_in must be a whole number from 300 to 2592000, got '240'", 240)).toBe("--expires 4m is outside what this server allows (5m to 4w 2d)");
  });

  it("7: a team link's warning says a team token is needed too", () => {
    expect(shareWarnings("team")[0]).toMatch(/whoever holds it and a token of your team/);
    expect(shareWarnings("link")[0]).toMatch(/whoever holds it can read/);
  });

  it("9: the insufficient explanations do not repeat themselves", () => {
    for (const text of Object.values(MISSING_EXPLANATION)) expect(text).not.toMatch(/^no current state: no current state|^no objective: no/);
  });

  it("next action: a state sentence is not work to continue with", () => {
    expect(isTask("_meta/ is untracked in this checkout.")).toBe(false);
    expect(isTask("tests are red on CI")).toBe(false);
    expect(isTask("write the backoff test")).toBe(true);
    expect(isTask("make sure the build is green")).toBe(true);
  });

  it("10: --format kernel --keyword is refused with a hint about keywords, not focus", async () => {
    const run = await runCli(["create", "--format", "kernel", "--keyword", "auth"], { cwd: "/", input: "{}" });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/drop --keyword/);
    expect(run.stderr).not.toMatch(/focus/);
  });

  it("1: resume --paste without a terminal points to --url-stdin; show takes the link from stdin", async () => {
    const paste = await runCli(["resume", "--paste"], { cwd: "/", input: "" });
    expect(paste.code).toBe(2);
    expect(paste.stderr).toMatch(/--url-stdin/);
    const show = await runCli(["show", "--url-stdin"], { cwd: "/", input: "not a url" });
    expect(show.code).toBe(2);
    expect(show.stderr).toMatch(/--url-stdin: stdin must hold one http\(s\) share URL/);
  });
});
