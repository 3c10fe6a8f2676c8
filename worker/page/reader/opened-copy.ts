// A link this tab has opened, kept so that a reload shows the document again instead of spending
// another view. Browser storage only; no DOM.
//
// Why sessionStorage, and why the ciphertext:
// - sessionStorage belongs to this tab: it survives a reload, and it is gone when the tab closes.
//   A new tab or window starts without it, so opening a link once does not leave it readable in
//   every tab of the browser; localStorage would outlive the session and is shared by every tab,
//   so nothing of a handoff ever goes there.
// - What is kept is the envelope exactly as the server sent it, and the link's metadata: nothing
//   the server does not already hold. The key stays where it was, in this tab's URL fragment; a
//   passphrase is asked for again; the plaintext is never written down. Storage is never sent to
//   the server (it is not a cookie).
// - Scoped to the link id, so one tab's copy of one link never stands in for another link.
import { type HandoffMeta, handoffMetaSchema } from "../../../shared/api/handoff.js";
import { decodeBase64Url, encodeBase64Url } from "../../../shared/ids/base64url.js";
import * as z from "zod/mini";

export interface OpenedCopy {
  /** The envelope's bytes, as fetched (still encrypted). */
  envelope: Uint8Array<ArrayBuffer>;
  /** The link as it stood right after this tab's view: what to show when the server says "used up". */
  link: HandoffMeta;
}

const storedSchema = z.strictObject({ envelope: z.string(), link: handoffMetaSchema });

const slot = (id: string) => `handoff.opened.${id}`;

/**
 * Keeps the envelope of link `id` for this tab; answers whether the browser took it (storage can
 * be off, or full: an envelope is up to a MiB).
 */
export function keepOpened(id: string, copy: OpenedCopy): boolean {
  try {
    sessionStorage.setItem(slot(id), JSON.stringify({ envelope: encodeBase64Url(copy.envelope), link: copy.link }));
    return true;
  } catch {
    return false;
  }
}

/** This tab's copy of link `id`, if it kept one; a damaged entry is dropped and counts as none. */
export function openedCopy(id: string): OpenedCopy | undefined {
  let text: string | null;
  try {
    text = sessionStorage.getItem(slot(id));
  } catch {
    return undefined;
  }
  if (text === null) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const stored = storedSchema.safeParse(json);
  const envelope = stored.success ? decodeBase64Url(stored.data.envelope) : undefined;
  if (!stored.success || envelope === undefined || stored.data.link.id !== id) {
    forgetOpened(id);
    return undefined;
  }
  return { envelope, link: stored.data.link };
}

/** Drops this tab's copy of link `id` (the Forget button; a link that expired or was revoked). */
export function forgetOpened(id: string): void {
  try {
    sessionStorage.removeItem(slot(id));
  } catch {
    // Storage that cannot be read holds no copy.
  }
}
