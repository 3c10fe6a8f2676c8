// What the reader says, in plain words: no DOM here, only values in and strings out.
import type { HandoffMeta } from "../../../shared/api/handoff.js";
import type { ErrorReason } from "../../../shared/errors.js";

const TEAM_ONLY = "This link is limited to a team. Open it with the Handoff CLI and a team token (below); the browser page cannot send one.";

/** What went wrong, for someone who holds a link; `status` is the HTTP status when one came back. */
export function problemWords(reason: ErrorReason | undefined, status?: number): string {
  switch (reason) {
    case "expired":
      return "This link has expired. Ask the sender for a new one.";
    case "revoked":
      return "The sender revoked this link. Ask them for a new one.";
    case "exhausted":
      return "This link is used up: all its views have been spent. Ask the sender for a new one.";
    case "not_found":
      return "There is no handoff at this link: it was mistyped, or the handoff is gone.";
    case "unauthorized":
    case "forbidden":
      return TEAM_ONLY;
    case "rate_limited":
      return "Too many requests from here. Wait a minute, then reload the page.";
    case "decrypt_failed":
      return "This handoff cannot be decrypted: the key in the link (after #) is wrong, or the data was changed or cut short. Check that you copied the whole link.";
    case "network":
      return "The server could not be reached. Check your connection, then reload the page.";
    default:
      return `The server could not answer this request${status === undefined ? "" : ` (HTTP ${status})`}. Try again later.`;
  }
}

/** The page was opened without the part after `#`. */
export const MISSING_KEY =
  "This link has no key: the part after # is missing, so the handoff cannot be decrypted here. Ask the sender for the full link.";

/** The four lines shown before any view is spent. */
export function metaWords(meta: HandoffMeta): { expires: string; views: string; size: string; scope: string } {
  return {
    expires: when(meta.expires_at),
    views: meta.views_left === null ? "unlimited until it expires" : `${meta.views_left} of ${meta.max_views ?? meta.views_left}`,
    size: sizeWords(meta.size),
    scope: meta.scope === "team" ? TEAM_ONLY : "anyone with the full link",
  };
}

/** A timestamp in the reader's own locale and zone, with the exact instant after it. */
export function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toLocaleString()} (${iso})`;
}

function sizeWords(bytes: number): string {
  // The stored size is the envelope's: padded and encrypted, a little more than the text.
  return bytes < 1024 ? `${bytes} bytes, encrypted` : `${(bytes / 1024).toFixed(1)} KiB, encrypted`;
}
