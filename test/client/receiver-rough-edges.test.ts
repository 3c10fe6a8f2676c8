import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intFlag } from "../../client/commands/args.js";
import { expiresInWords, shareWarnings } from "../../client/ops/publish/publish-file.js";
import { isTask } from "../../client/ops/orient/orient.js";
import { parseShareKey } from "../../shared/crypto/key.js";
import { parseDuration } from "../../shared/time/duration.js";
import { MISSING_EXPLANATION } from "../../shared/orient/extract.js";
import { ensureBuilt, runCli } from "../helpers/cli.js";
import { userBoxes } from "../helpers/user-box.js";
import { makeRepo, tempDir } from "./git-repo.js";

// Issue 24's rough edges, each as a new user hit it.

const caught = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error as { message: string; hint?: string };
  }
  throw new Error("expected an error");
};

// Both blocks run the built CLI.
beforeAll(ensureBuilt, 120_000);
const base = tempDir("handoff-rough-");
afterAll(() => rmSync(base, { recursive: true, force: true }));
const env = userBoxes(base);

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

describe("the rough edges, as the built CLI shows them", () => {
  it("the orientation carries the failed approaches (text and --json), and keeps the objective of an insufficient source", async () => {
    const { dir, env: vars } = env();
    writeFileSync(
      join(dir, "flaky.md"),
      "# Flaky upload test\n\n## Objective\nMake the upload test pass reliably.\n\n## Tried and failed\n- raising the timeout to 30 s: still flaky on CI\n\n## Current state\nThe test fails 3 of 50 runs.\n\n## Next steps\n- capture a trace of a failing run\n",
    );
    const text = await runCli(["resume", "flaky.md"], { cwd: dir, env: vars });
    expect(text.code, text.stderr).toBe(0);
    const extracted = text.stdout.slice(0, text.stdout.indexOf("Source text"));
    expect(extracted).toMatch(/Tried and failed \(do not re-explore without new evidence\)\n {2}- raising the timeout to 30 s: still flaky on CI/);
    const json = JSON.parse((await runCli(["resume", "flaky.md", "--json"], { cwd: dir, env: vars })).stdout) as { orientation: { failed: string[] } };
    expect(json.orientation.failed).toEqual(["raising the timeout to 30 s: still flaky on CI"]);

    writeFileSync(join(dir, "thin.md"), "# Note\n\n## Objective\nShip the retry path.\n");
    const thin = await runCli(["resume", "thin.md"], { cwd: dir, env: vars });
    expect(thin.code).toBe(1);
    expect(thin.stdout).toMatch(/This source is not enough to resume from/);
    expect(thin.stdout.slice(0, thin.stdout.indexOf("Source text"))).toMatch(/Objective\n {2}- Ship the retry path\./);
    // Rough edge 9: no stutter in the explanation.
    expect(thin.stdout).not.toMatch(/no current state: no current state/);
  });

  it("4: prune --older-than 0s, from the CLI: prune's reason, exit 2", async () => {
    const { dir, env: vars } = env();
    const run = await runCli(["prune", "--older-than", "0s"], { cwd: dir, env: vars });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/prune removes handoffs older than an age of at least one second/);
    expect(run.stderr).not.toMatch(/link/);
  });

  it("10: a kernel manifest without --title is named after its goal, and listed by it, not by the folder", async () => {
    const { dir, env: vars } = env();
    const repo = makeRepo(join(dir, "repo"), { "README.md": "# Demo\n" });
    const partial = {
      objective: { goal: "Ship the login fix", success_conditions: ["login test green"] },
      workflow: { phases: [{ name: "fix", status: "required" }] },
      execution: { entry_phase: "fix" },
    };
    const created = await runCli(["create", "--format", "kernel", "--json"], { cwd: repo, env: vars, input: JSON.stringify(partial) });
    expect(created.code, created.stderr).toBe(0);
    const listed = await runCli(["resume", "--json"], { cwd: repo, env: vars });
    const candidates = (JSON.parse(listed.stdout) as { candidates: { path: string; title: string }[] }).candidates;
    expect(candidates.find((c) => c.path.includes("_meta/handoffs"))?.title).toBe("Ship the login fix");
    const human = await runCli(["resume"], { cwd: repo, env: vars });
    expect(human.stdout).toContain("Ship the login fix");
    expect(human.stdout).not.toMatch(/^\s*1\. repo\b/m);
  });
});
