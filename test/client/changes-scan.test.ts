import { mkdirSync, readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { captureChanges } from "../../client/lib/changes/capture.js";
import { git, GIT_ENV, makeRepo, tempDir } from "./git-repo.js";
import { createHandoff } from "../../client/ops/create/create.js";
import { captureGit } from "../../client/lib/git.js";
import { isHandoffError } from "../../shared/errors.js";
import { gzip, png, randomBlob, sevenZipLookalike, tarOne, utf16be, utf16le, zipStored } from "../fixtures/redact/encoded.js";
import { positiveSamples } from "../fixtures/redact/samples.js";

// Issue 34 "Capture": what --with-changes sends is scanned as it decodes, on real repositories and
// real `git diff --binary` output. A file with a secret is left out and named; content the scan
// cannot read is refused (all of it named) unless the sender allows it.

const base = tempDir("handoff-changes-scan-");
afterAll(() => rmSync(base, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...GIT_ENV };
const sample = positiveSamples(6).find((s) => s.rule === "github-token");
if (sample === undefined) throw new Error("no github-token sample");
const secretLine = `${sample.text}\n`;
let count = 0;

function repo(committed: Record<string, string | Uint8Array> = {}): string {
  const dir = makeRepo(join(base, `r${++count}`));
  for (const [path, content] of Object.entries(committed)) write(dir, path, content);
  if (Object.keys(committed).length > 0) {
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "files");
  }
  return dir;
}

function write(dir: string, path: string, content: string | Uint8Array): void {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), content);
}

async function refusal(dir: string): Promise<{ message: string; files: { path: string; what: string }[] }> {
  const caught = await captureChanges(dir, env).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isHandoffError(caught) || caught.reason !== "unscannable") throw new Error(`expected an unscannable refusal, got ${String(caught)}`);
  return { message: caught.message, files: caught.details?.files as { path: string; what: string }[] };
}

describe("untracked files in an encoding that hid a secret are left out and named", () => {
  it.each([
    ["UTF-16LE with a byte-order mark", "notes/utf16le.txt", utf16le(secretLine), "UTF-16LE"],
    ["UTF-16BE without one", "notes/utf16be.txt", utf16be(secretLine, false), "UTF-16BE"],
    ["base64 in text", "deploy/values.yaml", `data: ${Buffer.from(secretLine).toString("base64")}\n`, "base64"],
    ["gzip", "dump/env.gz", gzip(secretLine), "gzip"],
  ])("%s", async (_name, path, content, view) => {
    const dir = repo();
    write(dir, path, content);
    write(dir, "clean.txt", "nothing to see\n");
    const bundle = await captureChanges(dir, env);
    expect(bundle.manifest.left_out).toEqual([{ path, reason: `holds a secret (github-token (in ${view})): left out, never sent` }]);
    expect(bundle.manifest.files.map((f) => f.path)).toEqual(["clean.txt"]);
  });

  it("a secret in a file's name leaves it out, and the name is redacted where it is shown", async () => {
    const dir = repo();
    const token = sample.secret;
    write(dir, `keys/${token}.txt`, "nothing inside\n");
    const bundle = await captureChanges(dir, env);
    expect(bundle.manifest.files).toEqual([]);
    expect(bundle.manifest.left_out).toEqual([{ path: "keys/[REDACTED:github-token].txt", reason: "holds a secret (github-token (in the file name)): left out, never sent" }]);
    expect(JSON.stringify(bundle.manifest)).not.toContain(token);
  });
});

describe("archives and binary content are refused unless the sender allows them", () => {
  it("each is named with what it is, and nothing is captured", async () => {
    const dir = repo();
    write(dir, "dist/app.zip", zipStored("readme.txt", "hello\n"));
    write(dir, "dist/app.tar", tarOne("readme.txt", "hello\n"));
    write(dir, "dist/app.tar.gz", gzip(tarOne("readme.txt", "hello\n")));
    write(dir, "dist/app.7z", sevenZipLookalike());
    write(dir, "assets/logo.png", png());
    write(dir, "assets/blob.bin", randomBlob(2048));
    write(dir, "ok.txt", "fine\n");
    const { message, files } = await refusal(dir);
    expect(files).toEqual([
      { path: "assets/blob.bin", what: "binary data" },
      { path: "assets/logo.png", what: "a PNG image" },
      { path: "dist/app.7z", what: "a 7z archive" },
      { path: "dist/app.tar", what: "a tar archive" },
      { path: "dist/app.tar.gz", what: "a tar archive (in gzip)" },
      { path: "dist/app.zip", what: "a zip archive" },
    ]);
    expect(message).toMatch(/^--with-changes: 6 files cannot be scanned for secrets: assets\/blob\.bin \(binary data\), .*; nothing was written$/);
  });

  it("with allowUnscanned they travel, and are listed as unscanned", async () => {
    const dir = repo();
    write(dir, "assets/logo.png", png());
    write(dir, "dist/app.zip", zipStored("readme.txt", "hello\n"));
    const bundle = await captureChanges(dir, env, undefined, { allowUnscanned: true });
    expect(bundle.manifest.files.map((f) => f.path)).toEqual(["assets/logo.png", "dist/app.zip"]);
    expect(bundle.unscanned).toEqual([
      { path: "assets/logo.png", what: "a PNG image" },
      { path: "dist/app.zip", what: "a zip archive" },
    ]);
  });

  it("allowing unscanned content never lets a found secret through", async () => {
    const dir = repo();
    write(dir, "dist/creds.zip", zipStored("creds.txt", secretLine));
    const bundle = await captureChanges(dir, env, undefined, { allowUnscanned: true });
    expect(bundle.manifest.files).toEqual([]);
    expect(bundle.manifest.left_out.map((f) => f.path)).toEqual(["dist/creds.zip"]);
  });
});

describe("binary changes of tracked files: both sides are rebuilt from git's patch and scanned", () => {
  // A binary file (a NUL byte makes git call it binary) with a secret in its committed contents.
  const withSecret = (filler = 0): Uint8Array => Buffer.concat([Buffer.from([0]), Buffer.from(secretLine), randomBlob(filler, 11)]);

  it("a deleted file's old contents (the reverse literal hunk) are scanned", async () => {
    const dir = repo({ "data/secret.bin": withSecret() });
    unlinkSync(join(dir, "data/secret.bin"));
    const bundle = await captureChanges(dir, env);
    expect(bundle.manifest.tracked).toEqual([]);
    expect(bundle.manifest.left_out).toEqual([{ path: "data/secret.bin", reason: "holds a secret (github-token (in the old contents)): left out, never sent" }]);
  });

  it("a changed file whose secret is only in its old side (a reverse delta) is left out", async () => {
    // Large enough for git to write deltas: the change keeps most bytes.
    const old = withSecret(6000);
    const changed = Buffer.from(old);
    changed.fill(0x41, 1, 1 + secretLine.length);
    const dir = repo({ "data/big.bin": old });
    writeFileSync(join(dir, "data/big.bin"), changed);
    const patch = git(dir, "diff", "--binary", "HEAD");
    expect(patch).toMatch(/\ndelta \d+\n/);
    const bundle = await captureChanges(dir, env);
    expect(bundle.manifest.left_out).toEqual([{ path: "data/big.bin", reason: "holds a secret (github-token (in the old contents)): left out, never sent" }]);
  });

  it("a clean binary change is binary data the scan cannot read: refused, then allowed", async () => {
    const dir = repo({ "assets/logo.png": png() });
    const changed = Buffer.from(png());
    changed.writeUInt8(changed.readUInt8(changed.length - 20) ^ 0xff, changed.length - 20);
    writeFileSync(join(dir, "assets/logo.png"), changed);
    expect((await refusal(dir)).files).toEqual([{ path: "assets/logo.png", what: "a PNG image" }]);
    const bundle = await captureChanges(dir, env, undefined, { allowUnscanned: true });
    expect(bundle.manifest.tracked).toEqual([expect.objectContaining({ path: "assets/logo.png", binary: true })]);
  });

  it("a binary change whose text lives in UTF-16 is decoded on both sides", async () => {
    const dir = repo({ "docs/notes.txt": utf16le(secretLine) });
    writeFileSync(join(dir, "docs/notes.txt"), utf16le("nothing secret now\n"));
    const bundle = await captureChanges(dir, env);
    expect(bundle.manifest.left_out).toEqual([{ path: "docs/notes.txt", reason: "holds a secret (github-token (in the old contents > UTF-16LE)): left out, never sent" }]);
  });
});

describe("the create operation", () => {
  it("refuses unscannable changes with nothing written, and writes them when allowed", async () => {
    const dir = repo();
    write(dir, "dist/app.zip", zipStored("readme.txt", "hello\n"));
    const store = join(base, "store");
    const options = {
      body: "# Ship it\n\nObjective: ship the archive.\n\n## Current state\n\nBuilt.\n",
      keywords: [],
      cwd: dir,
      env: { ...env, HANDOFF_ROOT: store },
      withChanges: true,
    };
    const deps = { now: () => new Date("2026-01-02T00:00:00Z"), captureGit };
    const refused = await createHandoff(options, deps).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isHandoffError(refused) && refused.reason).toBe("unscannable");
    expect(readdirSync(base)).not.toContain("store");
    const created = await createHandoff({ ...options, allowUnscanned: true }, deps);
    expect(created.result.changes?.untracked).toEqual([{ path: "dist/app.zip", bytes: expect.any(Number) }]);
    expect(created.result.warnings).toContainEqual({ code: "changes_unscanned", message: "--allow-unscanned: dist/app.zip travels without a full secret scan (a zip archive)" });
  });
});
