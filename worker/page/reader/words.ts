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
  team: {
    title: "This link is limited to a team",
    what: "Only members of the sender's team may open it, and this page cannot send a team token.",
    todo: "Open it with the Handoff CLI and your team token (below), or ask the sender for a link anyone may open.",
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

/** The page for a failed request: the server's error code when one came back. */
export function stateFor(reason: ErrorReason | undefined): PageState {
  switch (reason) {
    case "expired":
    case "revoked":
    case "exhausted":
    case "not_found":
    case "rate_limited":
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

/** The four lines shown before any view is spent. */
export function metaWords(meta: HandoffMeta): { expires: string; views: string; size: string; scope: string } {
  return {
    expires: when(meta.expires_at),
    views: meta.views_left === null ? "unlimited until it expires" : `${meta.views_left} of ${meta.max_views ?? meta.views_left}`,
    size: sizeWords(meta.size),
    scope: meta.scope === "team" ? "members of the sender's team" : "anyone with the full link",
  };
}

/** A timestamp in the reader's own locale and zone, with the exact instant after it. */
export function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toLocaleString()} (${iso})`;
}

/** A timestamp in the reader's own locale and zone only (the exact value goes in a tooltip). */
export function localTime(iso: string): string | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function sizeWords(bytes: number): string {
  // The stored size is the envelope's: padded and encrypted, a little more than the text.
  return bytes < 1024 ? `${bytes} bytes, encrypted` : `${(bytes / 1024).toFixed(1)} KiB, encrypted`;
}
