/**
 * R2 holds each published body as opaque bytes (the client's ciphertext) under
 * `v1/bodies/<id>`; the `v1` is the storage format version (docs/storage.md ("Server storage")).
 */
export const BODY_PREFIX = "v1/bodies/";

export const bodyKey = (id: string) => `${BODY_PREFIX}${id}`;

export async function putBody(bucket: R2Bucket, id: string, bytes: Uint8Array, expiresAt: number): Promise<void> {
  await bucket.put(bodyKey(id), bytes, {
    httpMetadata: { contentType: "application/octet-stream" },
    // Informational: who looks at the bucket can tell what is overdue (the backstop uses the expiry index).
    customMetadata: { expires_at: new Date(expiresAt).toISOString() },
  });
}

export function getBody(bucket: R2Bucket, id: string): Promise<R2ObjectBody | null> {
  return bucket.get(bodyKey(id));
}

export async function deleteBody(bucket: R2Bucket, id: string): Promise<void> {
  await bucket.delete(bodyKey(id));
}
