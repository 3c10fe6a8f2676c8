/**
 * The expiry index: one empty R2 object per live handoff, `v2/expiry/<hour>/<id>`, where `<hour>`
 * is the UTC hour its `expires_at` falls in (`2026-12-07T09`). Keys sort by hour, so the backstop
 * lists from the start of the prefix and stops at the first hour that is not yet due: its work
 * follows what was left behind, never what is stored (docs/storage.md, "Retention").
 * Each Durable Object deletes its own marker when it reclaims its storage, so in normal operation
 * the prefix holds only live handoffs and the backstop's listing ends on its first key.
 */
export const EXPIRY_PREFIX = "v2/expiry/";
const HOUR_MS = 3_600_000;

/** `2026-12-07T09`: the hour `at` falls in, in a form that sorts as time does. */
export const expiryHour = (at: number) => new Date(Math.floor(at / HOUR_MS) * HOUR_MS).toISOString().slice(0, 13);

export const expiryMarkerKey = (id: string, expiresAt: number) => `${EXPIRY_PREFIX}${expiryHour(expiresAt)}/${id}`;

/** The team rides along so the backstop can remove a team entry whose object is already gone. */
export async function putExpiryMarker(bucket: R2Bucket, id: string, expiresAt: number, team: string | null): Promise<void> {
  await bucket.put(expiryMarkerKey(id, expiresAt), new Uint8Array(0), team === null ? undefined : { customMetadata: { team } });
}

export async function deleteExpiryMarker(bucket: R2Bucket, id: string, expiresAt: number): Promise<void> {
  await bucket.delete(expiryMarkerKey(id, expiresAt));
}

export interface DueMarker {
  key: string;
  id: string;
  team: string | null;
}

/**
 * Markers whose whole hour ended before `dueBefore`, oldest first, at most `maxPages` pages of
 * 1,000. Stops at the first marker of a later hour: everything after it is later still.
 */
export async function listDueMarkers(bucket: R2Bucket, dueBefore: number, maxPages: number): Promise<DueMarker[]> {
  const due: DueMarker[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const listing = await bucket.list({ prefix: EXPIRY_PREFIX, cursor, limit: 1000, include: ["customMetadata"] });
    for (const object of listing.objects) {
      const [hour, id] = object.key.slice(EXPIRY_PREFIX.length).split("/");
      if (hour === undefined || id === undefined) continue;
      if (Date.parse(`${hour}:00:00.000Z`) + HOUR_MS > dueBefore) return due;
      due.push({ key: object.key, id, team: object.customMetadata?.team ?? null });
    }
    if (!listing.truncated) break;
    cursor = listing.cursor;
  }
  return due;
}
