import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type PublishedRecord, findPublished, listPublished, markRevoked, publishedState, savePublished } from "../../client/lib/published-store.js";
import { newShareKey } from "../../shared/crypto/key.js";

let configDir: string;
let storeDir: string;

beforeEach(async () => {
  configDir = join(await mkdtemp(join(tmpdir(), "handoff-published-")), "handoff");
  storeDir = join(configDir, "published");
});
afterEach(async () => {
  await rm(join(configDir, ".."), { recursive: true, force: true });
});

// 22 canonical base64url characters (16 bytes): the only id shape the server issues.
const id = (n: number) => `id${String(n).padStart(2, "0")}_aaaaaaaaaaaaaaaaA`;

function record(n: number, extra: Partial<PublishedRecord> = {}): PublishedRecord {
  return {
    id: id(n),
    server: "https://handoff.example.com",
    url_without_key: `https://handoff.example.com/h/${id(n)}`,
    owner_token: `owner-${n}`,
    expires_at: "2030-01-01T00:00:00.000Z",
    max_views: 2,
    scope: "link",
    created_at: `2026-05-0${n}T10:00:00.000Z`,
    local_path: `/tmp/handoff-${n}.md`,
    title: `Handoff ${n}`,
    ...extra,
  };
}

describe("savePublished", () => {
  it("writes one 0600 file per id in a 0700 folder, atomically", async () => {
    expect(await savePublished(configDir, record(1))).toEqual([]);
    await savePublished(configDir, record(2, { max_views: null, scope: "team" }));
    expect((await stat(storeDir)).mode & 0o777).toBe(0o700);
    const names = (await readdir(storeDir)).sort();
    expect(names).toEqual([`${id(1)}.json`, `${id(2)}.json`]);
    for (const name of names) expect((await stat(join(storeDir, name))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(storeDir, `${id(2)}.json`), "utf8"))).toEqual(record(2, { max_views: null, scope: "team" }));
  });

  it("tightens a store folder others could list, and says so", async () => {
    await mkdir(storeDir, { recursive: true });
    await chmod(storeDir, 0o755);
    const warnings = await savePublished(configDir, record(1));
    expect((await stat(storeDir)).mode & 0o777).toBe(0o700);
    expect(warnings).toEqual([expect.stringMatching(/published was open to other users \(mode 0755\); changed it to 0700/)]);
  });

  it.each([
    { name: "a key in the stored URL", rec: record(1, { url_without_key: `https://handoff.example.com/h/${id(1)}#${newShareKey()}` }) },
    { name: "an id that could escape the folder", rec: record(1, { id: "../../../../etc/passwd-aaaaaaaaaa" }) },
    { name: "an unknown scope", rec: { ...record(1), scope: "public" } as unknown as PublishedRecord },
  ])("refuses $name and writes nothing", async ({ rec }) => {
    await expect(savePublished(configDir, rec)).rejects.toMatchObject({ reason: "internal" });
    await expect(readdir(storeDir)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("findPublished", () => {
  const key = newShareKey();
  it.each([
    ["the id", id(3)],
    ["the id with spaces around", `  ${id(3)} `],
    ["the share URL with its key", `https://handoff.example.com/h/${id(3)}#${key}`],
    ["the share URL without key", `https://handoff.example.com/h/${id(3)}`],
    ["the API URL", `https://handoff.example.com/v1/handoffs/${id(3)}`],
  ])("by %s", async (_name, text) => {
    await savePublished(configDir, record(3));
    expect(await findPublished(configDir, text)).toEqual(record(3));
  });

  it("returns undefined for an id this user did not publish, and when nothing was ever published", async () => {
    expect(await findPublished(configDir, id(9))).toBeUndefined();
    await savePublished(configDir, record(1));
    expect(await findPublished(configDir, id(9))).toBeUndefined();
  });

  it.each([
    { text: "not-an-id", reason: "usage", message: /neither a share URL nor a handoff id/ },
    { text: "../published/x", reason: "usage", message: /neither a share URL nor a handoff id/ },
    { text: "https://handoff.example.com/h/short", reason: "usage", message: /id in the share URL is malformed/ },
  ])("refuses $text", async ({ text, reason, message }) => {
    await expect(findPublished(configDir, text)).rejects.toMatchObject({ reason, message: expect.stringMatching(message) });
  });

  it("names a corrupt record for that id rather than crashing", async () => {
    await mkdir(storeDir, { recursive: true });
    await writeFile(join(storeDir, `${id(4)}.json`), "{ nope");
    await expect(findPublished(configDir, id(4))).rejects.toMatchObject({
      reason: "invalid_document",
      message: expect.stringMatching(new RegExp(`${id(4)}\\.json: not valid JSON$`)),
    });
  });
});

describe("listPublished", () => {
  it("is empty when nothing was published", async () => {
    expect(await listPublished(configDir)).toEqual({ records: [], warnings: [] });
  });

  it("lists newest first and skips every kind of bad record with a warning", async () => {
    for (const n of [1, 3, 2]) await savePublished(configDir, record(n));
    const bad: Record<string, string> = {
      [`${id(5)}.json`]: "{ not json",
      [`${id(6)}.json`]: JSON.stringify({ ...record(6), owner_token: undefined }),
      [`${id(7)}.json`]: JSON.stringify(record(8)),
      [`${id(9)}.json`]: JSON.stringify({ ...record(9), url_without_key: `https://handoff.example.com/h/${id(9)}#k` }),
      "not-an-id.json": JSON.stringify(record(1)),
    };
    for (const [name, content] of Object.entries(bad)) await writeFile(join(storeDir, name), content, { mode: 0o600 });
    await writeFile(join(storeDir, `.${id(1)}.json.abc.tmp`), "half a write");
    await writeFile(join(storeDir, "notes.txt"), "not a record");
    await symlink(join(storeDir, `${id(1)}.json`), join(storeDir, `${id(11)}.json`));

    const { records, warnings } = await listPublished(configDir);
    expect(records.map((r) => r.id)).toEqual([id(3), id(2), id(1)]);
    expect(warnings).toHaveLength(6);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^skipped .*${id(5)}\\.json: not valid JSON`)),
        expect.stringMatching(new RegExp(`${id(6)}\\.json: not a published record \\(owner_token: `)),
        expect.stringMatching(new RegExp(`${id(7)}\\.json: records id ${id(8)}, not the id in its file name`)),
        expect.stringMatching(new RegExp(`${id(9)}\\.json: not a published record \\(url_without_key: must not contain '#'`)),
        expect.stringMatching(/not-an-id\.json: the file name is not a handoff id/),
        expect.stringMatching(/\.json: not a regular file/),
      ]),
    );
  });
});

describe("markRevoked and publishedState", () => {
  it("records the first revocation time and keeps it", async () => {
    await savePublished(configDir, record(1));
    const first = await markRevoked(configDir, id(1), new Date("2026-05-02T00:00:00Z"));
    expect(first?.revoked_at).toBe("2026-05-02T00:00:00.000Z");
    const again = await markRevoked(configDir, `https://handoff.example.com/h/${id(1)}`, new Date("2026-05-03T00:00:00Z"));
    expect(again?.revoked_at).toBe("2026-05-02T00:00:00.000Z");
    expect((await findPublished(configDir, id(1)))?.revoked_at).toBe("2026-05-02T00:00:00.000Z");
    expect((await stat(join(storeDir, `${id(1)}.json`))).mode & 0o777).toBe(0o600);
  });

  it("returns undefined for an unknown id", async () => {
    expect(await markRevoked(configDir, id(7))).toBeUndefined();
  });

  it.each([
    { name: "before expiry", rec: record(1), now: "2029-12-31T23:59:59Z", state: "active" },
    { name: "at expiry", rec: record(1), now: "2030-01-01T00:00:00Z", state: "expired" },
    { name: "revoked", rec: record(1, { revoked_at: "2026-05-02T00:00:00Z" }), now: "2027-01-01T00:00:00Z", state: "revoked" },
    { name: "revoked and expired", rec: record(1, { revoked_at: "2026-05-02T00:00:00Z" }), now: "2031-01-01T00:00:00Z", state: "revoked" },
  ])("$name -> $state", ({ rec, now, state }) => {
    expect(publishedState(rec, new Date(now))).toBe(state);
  });
});
