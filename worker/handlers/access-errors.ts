import { READ_TOKEN_HEADER } from "../../shared/crypto/read-token.js";
import { HandoffError } from "../../shared/errors.js";
import { type AccessDecision, PASSPHRASE_LOCK_AFTER, PASSPHRASE_SLOW_AFTER, type PassphraseLimit } from "../durable/access-state.js";

type Denied = Extract<AccessDecision, { ok: false }>;

const OWNER_RESET = "ask the sender to reset it ('handoff published --unlock <id>') or to revoke it and send a new link";

/** What every answer about a passphrase link's limit carries, for a client to word its next step. */
function limitDetails(limit: PassphraseLimit | undefined, now: number) {
  const wrong = limit?.wrong ?? 0;
  const wait = limit?.judge_after == null ? 0 : Math.max(1, Math.ceil((limit.judge_after - now) / 1000));
  return {
    wrong_passphrases: wrong,
    slow_after: PASSPHRASE_SLOW_AFTER,
    lock_after: PASSPHRASE_LOCK_AFTER,
    ...(limit?.judge_after == null || wait === 0 ? {} : { judge_after: new Date(limit.judge_after).toISOString(), wait_seconds: wait }),
  };
}

/** "3 wrong so far; after 5 each try waits, and 20 lock the link". */
function countWords(limit: PassphraseLimit | undefined): string {
  const wrong = limit?.wrong ?? 0;
  return `${wrong} wrong passphrase${wrong === 1 ? "" : "s"} on this link so far; from ${PASSPHRASE_SLOW_AFTER} on each next try waits, and ${PASSPHRASE_LOCK_AFTER} lock it`;
}

/** The error a denied read answers with: 404, 401, 403, or 410 saying why the link is over. */
export function accessDenied(decision: Denied): HandoffError {
  switch (decision.reason) {
    case "not_found":
      return new HandoffError("not_found", "no handoff with this id", { hint: "check the link; a link is forgotten a day after it expires, is revoked or is used up" });
    case "unauthorized":
      return new HandoffError("unauthorized", "this handoff is shared with a team: send a team token", {
        hint: "send 'Authorization: Bearer <team token>'",
      });
    case "forbidden":
      return new HandoffError("forbidden", "this handoff is shared with another team");
    case "key_required":
      return new HandoffError("decrypt_failed", "reading this handoff needs proof of its key: no read token was sent", {
        hint: `open the whole share link with a current handoff CLI or in a browser; an API client sends the ${READ_TOKEN_HEADER} header (docs/api.md)`,
      });
    case "key_mismatch":
      return new HandoffError("decrypt_failed", "the read token does not match this link's key: no view was spent", {
        hint: "check that the whole share link was copied, including everything after '#'",
      });
    case "passphrase_mismatch": {
      const details = limitDetails(decision.limit, decision.now ?? 0);
      const wait = "wait_seconds" in details ? ` The next try is judged from ${details.judge_after} (in ${details.wait_seconds} s).` : "";
      return new HandoffError(
        "decrypt_failed",
        `this share link needs its passphrase, and the read token does not match it (none was given, or a wrong one): no view was spent (${countWords(decision.limit)}).${wait}`,
        {
          hint: "the CLI asks for the passphrase at a prompt or reads it with --passphrase; the share page asks for it",
          details: { passphrase: true, ...details },
        },
      );
    }
    case "passphrase_missing":
      return new HandoffError("decrypt_failed", "this share link needs its passphrase as well as the link, and none was given: no view was spent, and it does not count as a wrong passphrase", {
        hint: "the CLI asks for the passphrase at a prompt or reads it with --passphrase; the share page asks for it",
        details: { passphrase: true, ...limitDetails(decision.limit, decision.now ?? 0) },
      });
    case "passphrase_slowed": {
      // Not a judgement: the right passphrase gets the same answer until the wait is over.
      const details = limitDetails(decision.limit, decision.now ?? 0);
      const seconds = "wait_seconds" in details ? details.wait_seconds : 1;
      return new HandoffError(
        "rate_limited",
        `this share link is slowed down after ${decision.limit?.wrong ?? PASSPHRASE_SLOW_AFTER} wrong passphrases: this try was not judged, and no view was spent`,
        {
          hint: `wait ${seconds} second${seconds === 1 ? "" : "s"}, then try again with the right passphrase (check it with the sender); ${PASSPHRASE_LOCK_AFTER} wrong ones lock the link`,
          details: { retry_after: seconds, passphrase_limit: "slowed", ...details },
        },
      );
    }
    case "passphrase_locked":
      return new HandoffError(
        "locked",
        `this share link is locked after ${decision.limit?.wrong ?? PASSPHRASE_LOCK_AFTER} wrong passphrases: no try is judged until its owner resets it, and no view was spent`,
        {
          hint: OWNER_RESET,
          details: { passphrase_limit: "locked", ...limitDetails(decision.limit, decision.now ?? 0) },
        },
      );
    case "revoked":
      return new HandoffError("revoked", "this share link was revoked by its owner");
    case "expired":
      return new HandoffError("expired", `this share link expired at ${new Date(decision.expires_at ?? 0).toISOString()}`);
    case "exhausted": {
      const views = decision.max_views ?? 0;
      return new HandoffError("exhausted", `this share link has used ${views === 1 ? "its only view" : `all of its ${views} views`}`);
    }
  }
}
