/**
 * The one resume command a share page shows, and how to use it, for each kind of link. The page's
 * HTML starts with the plain link's; the reader switches to a passphrase link's or a team link's
 * once the server has said which the link is. Both sides import this, so the words are written once.
 */
import type { HandoffMeta } from "../../shared/api/handoff.js";
import { SHARE_RESUME_COMMAND } from "../../shared/ce/resume-command.js";

/** A link anyone with it may open, one that also needs a passphrase, one limited to a team. */
export type LinkKind = "link" | "passphrase" | "team";

/** The kind of a link from its metadata; a team link that needs a passphrase too is a team link (its command asks for the passphrase). */
export function linkKindOf(meta: Pick<HandoffMeta, "scope" | "passphrase">): LinkKind {
  return meta.scope === "team" ? "team" : meta.passphrase ? "passphrase" : "link";
}

export interface ResumeWords {
  /** The command, exactly as it is typed (and copied by the page's Copy resume command). */
  command: string;
  /** What to do with it, in one paragraph of plain text. */
  how: string;
}

const COUNTS = "Opening it there counts one view too.";

/**
 * The resume command for link `id` of kind `kind`. A team link's command needs no link at all: a
 * teammate's CLI finds it in the team's inbox, and the key comes with it (docs/cli.md, "handoff team").
 *
 * @example
 * ```ts
 * resumeWords("team", "q3Jf0wS5b1mCq2o9X0aZ4w").command // "handoff resume --team q3Jf0wS5b1mCq2o9X0aZ4w"
 * ```
 */
export function resumeWords(kind: LinkKind, id: string): ResumeWords {
  switch (kind) {
    case "link":
      return {
        command: SHARE_RESUME_COMMAND,
        how: `Run this, then paste the full link, including everything after #, at its prompt: it is not shown, and never lands in your shell history. ${COUNTS}`,
      };
    case "passphrase":
      return {
        command: SHARE_RESUME_COMMAND,
        how: `Run this, then paste the full link, including everything after #, at its first prompt and the passphrase at the second: neither is shown, and neither lands in your shell history. ${COUNTS}`,
      };
    case "team":
      return {
        command: `handoff resume --team ${id}`,
        how: "Run this on a machine that joined the sender's team (handoff team join): it finds this link in your team's inbox, so there is nothing to paste. Opening it counts one view.",
      };
  }
}
