// What the reader says, in plain words: no DOM here, only values in and strings out.
import type { HandoffMeta } from "../../../shared/api/handoff.js";
import type { ErrorReason } from "../../../shared/errors.js";

/** Every way a visit can end without a handoff to show; each gets its own page. */
export type PageState =
  | "expired"
  | "revoked"
  | "exhausted"
  | "not_found"
  | "missing_key"
  | "bad_key"
  | "wrong_key"
  | "wrong_passphrase"
  | "slowed"
  | "locked"
  | "team"
  | "rate_limited"
  | "network"
  | "server";

export interface StateWords {
  /** The page's heading: what happened. */
  title: string;
  what: string;
  /** What the reader can do now. */
  todo: string;
  /** Whether resuming with the CLI could still work (the CLI section stays on the page). */
  cli: boolean;
}

const ASK_AGAIN = "Ask the sender for a new link.";

export const STATE_WORDS: Record<PageState, StateWords> = {
  expired: { title: "This link has expired", what: "Its lifetime is over, so the handoff is no longer available.", todo: ASK_AGAIN, cli: false },
  revoked: { title: "This link was revoked", what: "The sender withdrew it, so the handoff is no longer available.", todo: ASK_AGAIN, cli: false },
  exhausted: {
    title: "This link is used up",
    what: "All of its views have been spent, so the handoff cannot be opened again.",
    todo: `${ASK_AGAIN} If you opened it before, your copy is wherever you saved it.`,
    cli: false,
  },
  not_found: {
    title: "There is no handoff at this link",
    what: "The link was mistyped or cut short, or the handoff is gone.",
    todo: "Check that you copied the whole link; otherwise ask the sender for a new one.",
    cli: false,
  },
  missing_key: {
    title: "This link has no key",
    what: "The part after # is missing, so the handoff cannot be decrypted here. No view was spent.",
    todo: "Ask the sender for the full link, including everything after #.",
    cli: false,
  },
  bad_key: {
    title: "The key in this link is damaged",
    what: "The part after # is not a valid key, so the handoff cannot be decrypted. No view was spent.",
    todo: "Copy the whole link again, including everything after #, or ask the sender for it.",
    cli: false,
  },
  wrong_key: {
    title: "This handoff cannot be decrypted",
    what: "The key in the link (after #) does not match this handoff, or the data was changed or cut short.",
    todo: "Check that you copied the whole link exactly; otherwise ask the sender for a new one.",
    cli: false,
  },
  wrong_passphrase: {
    title: "Wrong passphrase",
    what: "The server refused the passphrase for this link. No view was spent.",
    todo: "Check the passphrase with the sender and try again.",
    cli: true,
  },
  slowed: {
    title: "Slowed down after wrong passphrases",
    what: "Several wrong passphrases were tried on this link, so the server waits (up to a minute) before it judges the next one. This try was not judged, and no view was spent.",
    todo: "Wait a minute, check the passphrase with the sender, then try again. After 20 wrong passphrases the link locks.",
    cli: true,
  },
  locked: {
    title: "This link is locked",
    what: "Too many wrong passphrases were tried on this link, so the server locked it: no passphrase is judged until the sender resets it. No view was spent.",
    todo: "Ask the sender to reset it (handoff published --unlock) or to send a new link.",
    cli: false,
  },
  team: {
    title: "This link is limited to a team",
    what: "Only members of the sender's team may open it, and this page cannot send a team token.",
    todo: "Open it with the Handoff CLI on a machine that joined the team (below), or ask the sender for a link anyone may open.",
    cli: true,
  },
  rate_limited: { title: "Too many requests", what: "The server is limiting requests from here for a moment.", todo: "Wait a minute, then reload the page.", cli: true },
  network: {
    title: "The server could not be reached",
    what: "The request did not get through: the connection failed or broke off. No view was spent unless the page said the handoff was opened.",
    todo: "Check your connection, then reload the page.",
    cli: true,
  },
  server: {
    title: "The server ran into a problem",
    what: "It could not answer this request. This is not a problem with your link.",
    todo: "Try again in a few minutes; if it keeps happening, tell the sender.",
    cli: true,
  },
};

/**
 * The page for a failed request, from the server's error body when one came back: a passphrase
 * link's own limit (slowed, locked) and a refused passphrase first, then the error code.
 *
 * @example
 * ```ts
 * pageStateOf({ code: "rate_limited", details: { passphrase_limit: "slowed" } }) // "slowed"
 * pageStateOf({ code: "decrypt_failed", details: { passphrase: true } }) // "wrong_passphrase"
 * ```
 */
export function pageStateOf(error: { code: ErrorReason; details?: Record<string, unknown> | undefined } | undefined): PageState {
  if (error?.details?.passphrase_limit === "slowed") return "slowed";
  // A passphrase link refused the read token: no view was spent, and the reader may try again.
  if (error?.details?.passphrase === true) return "wrong_passphrase";
  return stateFor(error?.code);
}

/** The page for a failed request: the server's error code when one came back. */
function stateFor(reason: ErrorReason | undefined): PageState {
  switch (reason) {
    case "expired":
    case "revoked":
    case "exhausted":
    case "not_found":
    case "rate_limited":
    case "locked":
    case "network":
      return reason;
    case "unauthorized":
    case "forbidden":
      return "team";
    case "decrypt_failed":
      return "wrong_key";
    default:
      return "server";
  }
}

/** The four lines shown before any view is spent; the expiry is shown by `instantWords`, in a <time>. */
export function metaWords(meta: HandoffMeta): { views: string; size: string; scope: string } {
  return {
    views: viewsWords(meta),
    size: sizeWords(meta.size),
    scope: scopeWords(meta),
  };
}

/**
 * Who may open the link: what the server checks (a team token, a read token only the passphrase
 * gives) besides the key in the full link.
 *
 * @example
 * ```ts
 * scopeWords({ scope: "link", passphrase: true }) // "anyone with the full link and its passphrase"
 * ```
 */
export function scopeWords(meta: Pick<HandoffMeta, "scope" | "passphrase">): string {
  const passphrase = meta.passphrase === true;
  if (meta.scope === "team") return `members of the sender's team, with the Handoff CLI${passphrase ? " and the link's passphrase" : ""}`;
  return passphrase ? "anyone with the full link and its passphrase" : "anyone with the full link";
}

/** "1 of 2", or "unlimited until it expires". */
export function viewsWords(meta: Pick<HandoffMeta, "views_left" | "max_views">): string {
  return meta.views_left === null ? "unlimited until it expires" : `${meta.views_left} of ${meta.max_views ?? meta.views_left}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The page's one way to write an instant: in the reader's time zone, with that zone's offset from
 * UTC, a month name and a 24-hour clock, so no reader can take 03/12 for 12 March and the words
 * are the same in every browser locale (the page is in English). The exact instant goes in the
 * <time> element's datetime (time-dom.ts). Undefined for what is not a timestamp.
 *
 * @example
 * ```ts
 * instantWords("2026-11-30T09:15:00Z") // "30 Nov 2026, 09:15 UTC" (UTC+5:30 in Kolkata: "30 Nov 2026, 14:45 UTC+5:30")
 * ```
 */
export function instantWords(iso: string, date = new Date(iso)): string | undefined {
  if (Number.isNaN(date.getTime())) return undefined;
  const two = (n: number) => String(n).padStart(2, "0");
  // getTimezoneOffset is UTC minus local time, in minutes: -330 in Kolkata.
  const east = -date.getTimezoneOffset();
  const hours = Math.floor(Math.abs(east) / 60);
  const minutes = Math.abs(east) % 60;
  const zone = east === 0 ? "UTC" : `UTC${east > 0 ? "+" : "-"}${hours}${minutes === 0 ? "" : `:${two(minutes)}`}`;
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}, ${two(date.getHours())}:${two(date.getMinutes())} ${zone}`;
}

function sizeWords(bytes: number): string {
  // The stored size is the envelope's: padded and encrypted, a little more than the text.
  return bytes < 1024 ? `${bytes} bytes, encrypted` : `${(bytes / 1024).toFixed(1)} KiB, encrypted`;
}
