import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readChangesBeside } from "../../client/lib/changes/beside.js";
import { keepOpenedCopy, readOpenedCopy } from "../../client/lib/opened-copy.js";
import { captureGit } from "../../client/lib/git.js";
import { deleteHandoffs, listStore, storeHandoff } from "../../client/lib/store-index.js";
import { createHandoff } from "../../client/ops/create/create.js";
import { GIT_ENV, makeRepo, tempDir } from "./git-repo.js";

// A changes bundle lives and dies with its handoff: rm and prune delete it with the handoff, and
// one an interrupted create left behind is never taken for the next handoff of the same name.

const BODY = "# Retry path\n\n## Objective\nMake the uploader retry on 503.\n\n## Next steps\n- write the backoff test\n";
let root = "";
let n = 0;

beforeAll(() => {
  root = tempDir("handoff-changes-lifecycle-");
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function setup() {
  const dir = join(root, `case-${++n}`);
  const repo = makeRepo(join(dir, "repo"), { "README.md": "# Uploader\n" });
  writeFileSync(join(repo, "README.md"), "# Uploader\n\nRetries: backoff.\n");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(dir, "home"), HANDOFF_ROOT: join(dir, "store"), ...GIT_ENV };
  mkdirSync(env.HOME);
  const create = (withChanges: boolean, title = "Retry path") =>
    createHandoff({ body: BODY, title, keywords: [], cwd: repo, env, withChanges }, { now: () => new Date("2026-03-01T10:00:00Z"), captureGit });
  return { repo, env, create };
}

describe("a bundle lives and dies with its handoff", () => {
  it("rm deletes the handoff and the bundle it names", async () => {
    const { repo, env, create } = setup();
    const { result } = await create(true);
    const bundle = result.changes?.path ?? "";
    expect(existsSync(bundle)).toBe(true);
    const entry = storeHandoff(result.path, env, repo);
    expect(typeof entry !== "string" && entry.changes).toBe(bundle);
    if (typeof entry !== "string") deleteHandoffs([entry]);
    expect(existsSync(result.path)).toBe(false);
    expect(existsSync(bundle)).toBe(false);
  });

  it("prune's listing carries the bundle with its handoff", async () => {
    const { env, create } = setup();
    const { result } = await create(true);
    const { entries } = listStore(env);
    expect(entries.map((e) => [basename(e.path), e.changes && basename(e.changes)])).toEqual([[basename(result.path), basename(result.changes?.path ?? "")]]);
    deleteHandoffs(entries);
    expect(readdirSync(dirname(result.path))).toEqual([]);
  });

  it("an interrupted create's bundle is never adopted, and prune can delete it", async () => {
    const { env, create } = setup();
    const first = await create(true);
    // The create that was stopped after writing its bundle: the handoff never got written.
    rmSync(first.result.path);
    const orphan = first.result.changes?.path ?? "";
    const again = await create(false);
    expect(basename(again.result.path)).not.toBe(basename(orphan).replace(/\.changes$/, ".md"));
    expect(readChangesBeside(again.result.path, again.document, env)).toBeUndefined();
    // A handoff that names no bundle is not given one lying beside it under its own stem either.
    const stem = join(dirname(orphan), basename(orphan, ".changes"));
    writeFileSync(`${stem}.md`, again.document);
    expect(readChangesBeside(`${stem}.md`, again.document, env)).toBeUndefined();
    rmSync(`${stem}.md`);

    const { entries } = listStore(env);
    const listed = entries.find((e) => e.path === orphan);
    expect(listed).toMatchObject({ kind: "orphan_changes", title: expect.stringMatching(/interrupted create/) });
    deleteHandoffs(listed ? [listed] : []);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(again.result.path)).toBe(true);
  });

  it("outside the managed store, the bundle saved beside a downloaded handoff is still found", async () => {
    const { env } = setup();
    const downloads = join(root, `downloads-${n}`);
    mkdirSync(downloads);
    const { result } = await setup().create(true);
    const handoff = join(downloads, "retry.md");
    writeFileSync(handoff, "# Retry path\n\nObjective: x\n");
    writeFileSync(join(downloads, "retry.changes"), readFileSync(result.changes?.path ?? ""));
    expect(readChangesBeside(handoff, "# Retry path\n", env)?.length).toBeGreaterThan(0);
  });
});

describe("an opened share link kept decrypted on this machine", () => {
  const link = { server: "https://handoff.example", id: "AAAAAAAAAAAAAAAAAAAAAA", key: "k".repeat(43) };
  const opened = new Date("2026-03-01T10:00:00Z");

  it("is kept 0600 for a day at most (or until the link expires), read only with its own key", async () => {
    const { env } = setup();
    const copy = keepOpenedCopy(env, link, { document: new TextEncoder().encode("# doc\n"), changes: new Uint8Array([1, 2]), views_left: 1 }, opened, "2026-03-05T00:00:00Z");
    expect(copy.keep_until).toBe("2026-03-02T10:00:00.000Z");
    expect(statSync(copy.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(copy.path)).mode & 0o777).toBe(0o700);
    const later = new Date("2026-03-01T20:00:00Z");
    expect(await readOpenedCopy(env, link.server, link.id, link.key, later)).toMatchObject({ views_left: 1, changes: new Uint8Array([1, 2]) });
    expect(await readOpenedCopy(env, link.server, link.id, "x".repeat(43), later)).toBeUndefined();
    expect(await readOpenedCopy(env, "https://other.example", link.id, link.key, later)).toBeUndefined();
    const sooner = keepOpenedCopy(env, link, { document: new Uint8Array([35]), views_left: 0 }, opened, "2026-03-01T12:00:00Z");
    expect(sooner.keep_until).toBe("2026-03-01T12:00:00.000Z");
  });

  it("is listed in the store, so rm and prune delete it like a handoff", () => {
    const { env } = setup();
    const now = new Date();
    const copy = keepOpenedCopy(env, link, { document: new Uint8Array([35]), views_left: 1 }, now);
    const { entries } = listStore(env);
    expect(entries).toEqual([expect.objectContaining({ path: copy.path, kind: "opened_copy", created_at: now.toISOString() })]);
    const entry = storeHandoff(copy.path, env, dirname(copy.path));
    expect(typeof entry !== "string" && entry.kind).toBe("opened_copy");
    if (typeof entry !== "string") deleteHandoffs([entry]);
    expect(existsSync(copy.path)).toBe(false);
  });

  it("is deleted by the first read after its time is up", async () => {
    const { env } = setup();
    const copy = keepOpenedCopy(env, link, { document: new Uint8Array([35]), views_left: 1 }, opened);
    expect(await readOpenedCopy(env, link.server, link.id, link.key, new Date("2026-03-02T10:00:01Z"))).toBeUndefined();
    expect(existsSync(copy.path)).toBe(false);
  });
});
