import { sealTeamCard } from "../../../shared/crypto/team-card.js";
import { isHandoffError } from "../../../shared/errors.js";
import { cardFromDocument } from "../../../shared/team/card-from-document.js";
import type { ConfigLocation } from "../../lib/config.js";
import { defaultMemberName, loadTeamRing } from "../../lib/team-ring.js";

/**
 * What a team publish seals for teammates: a card from the (redacted) document and the share
 * key, bound to the id the publish proposes, signed with this machine's member key (its name is
 * the card's publisher). Without a team key for this server the entry is published without a
 * card (teammates see it listed, untitled); without a member key the card is unsigned, and
 * teammates see it as unverified. A warning says how to get either.
 */
export async function teamCardFor(server: string, location: ConfigLocation, input: { text: string; createdAt: string; shareKey: string }) {
  const ring = await loadTeamRing(server, location);
  const current = ring.keys[0];
  if (current === undefined) {
    return {
      warning: `no team key for ${server} on this machine: teammates see this link listed without its title and cannot open it from 'handoff resume --team' (join with an invite: 'handoff team join')`,
      seal: async (_id: string): Promise<string | undefined> => undefined,
    };
  }
  const signer = ring.identity;
  const card = cardFromDocument(input.text, { createdAt: input.createdAt, publisher: signer?.name ?? defaultMemberName(location.env) });
  return {
    warning:
      signer === undefined
        ? `no member key for ${server} on this machine, so the card is not signed: teammates see it as unverified (no signature); ask a teammate for 'handoff team invite --keys-only --member <your name>' and join with it`
        : undefined,
    seal: async (id: string): Promise<string | undefined> => {
      try {
        return await sealTeamCard({ id, shareKey: input.shareKey, card }, current, signer);
      } catch (error) {
        if (!isHandoffError(error) || error.reason !== "too_large") throw error;
        // Text that escapes badly (control characters) can overflow the card: keep what identifies it.
        const { summary: _summary, keywords: _keywords, ...small } = card;
        return sealTeamCard({ id, shareKey: input.shareKey, card: small }, current, signer);
      }
    },
  };
}
