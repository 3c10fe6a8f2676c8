/**
 * R2 holds each published body as opaque bytes (the client's ciphertext) under
 * `v1/bodies/<id>`; the `v1` is the storage format version (docs/storage.md ("Server storage")).
 */
export const BODY_PREFIX = "v1/bodies/";

export const bodyKey = (id: string) => `${BODY_PREFIX}${id}`;

export async function putBody(bucket: R2Bucket, id: string, bytes: Uint8Array, expiresAt: number): Promise<void> {
  await bucket.put(bodyKey(id), bytes, {
    httpMetadata: { contentType: "application/octet-stream" },
    // Lets the cron sweep find leftovers without asking each Durable Object.
    customMetadata: { expires_at: new Date(expiresAt).toISOString() },
  });
}

export function getBody(bucket: R2Bucket, id: string): Promise<R2ObjectBody | null> {
  return bucket.get(bodyKey(id));
}

export async function deleteBody(bucket: R2Bucket, id: string): Promise<void> {
  await bucket.delete(bodyKey(id));
}

/** Deletes every body whose recorded expiry is at or before `now`; returns how many. Bounded by `maxPages`. */
export async function deleteExpiredBodies(bucket: R2Bucket, now: number, maxPages = 50): Promise<number> {
  let cursor: string | undefined;
  let deleted = 0;
  for (let page = 0; page < maxPages; page++) {
    const listing = await bucket.list({ prefix: BODY_PREFIX, cursor, include: ["customMetadata"], limit: 1000 });
    const expired = listing.objects
      .filter((object) => {
        const expiresAt = Date.parse(object.customMetadata?.expires_at ?? "");
        // No readable expiry: not ours to judge here; the Durable Object's alarm owns it.
        return Number.isFinite(expiresAt) && expiresAt <= now;
      })
      .map((object) => object.key);
    if (expired.length > 0) await bucket.delete(expired);
    deleted += expired.length;
    if (!listing.truncated) break;
    cursor = listing.cursor;
  }
  return deleted;
}
