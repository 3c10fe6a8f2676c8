import { READ_TOKEN_HEADER } from "../../shared/crypto/read-token.js";
import { HandoffError } from "../../shared/errors.js";
import type { AccessDecision } from "../durable/access-state.js";

type Denied = Extract<AccessDecision, { ok: false }>;

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
    case "passphrase_mismatch":
      return new HandoffError("decrypt_failed", "this share link needs its passphrase, and the read token does not match it (none was given, or a wrong one): no view was spent", {
        hint: "the CLI asks for the passphrase at a prompt or reads it with --passphrase; the share page asks for it",
        details: { passphrase: true },
      });
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
