/**
 * An automatic handoff for a session whose transcript cannot be read (Cursor and VS Code do not
 * document theirs, and may name none): what the checkout holds when the event came, and what the
 * event said, with no word of the person's or the agent's. Written only when the checkout holds
 * work a fresh session could lose track of: uncommitted changes.
 */

export interface CheckoutFacts {
  branch?: string;
  head?: string;
  upstream?: string;
  ahead?: number;
  /** Uncommitted entries, as `git status` names them (`modified`, `untracked`, ...), at most {@link CHECKOUT_LIMITS}.files. */
  changes: { path: string; status: string }[];
  /** How many uncommitted entries there are in all. */
  changed: number;
  /** The latest commits, newest first: abbreviated hash and subject. */
  commits: { hash: string; subject: string }[];
}

export const CHECKOUT_LIMITS = { files: 20, commits: 3, subjectChars: 120 } as const;

/**
 * The body, or undefined when the checkout holds no uncommitted work (the commits are in the
 * repository for anyone to read; nothing would be lost).
 *
 * @example
 * ```ts
 * checkoutBody({ branch: "main", head: "3abc559f...", changes: [{ path: "src/cart.ts", status: "modified" }], changed: 1, commits: [] },
 *   { agent: "Cursor", occasion: "at session end (completed)", why: "Cursor named no transcript" })
 * // "# Uncommitted work on main\n\nDrafted at session end (completed) from a Cursor session's checkout: ..."
 * ```
 */
export function checkoutBody(facts: CheckoutFacts, event: { agent?: string; occasion: string; why: string }): string | undefined {
  if (facts.changed === 0) return undefined;
  const where = facts.branch ? `on ${facts.branch}` : "on a detached HEAD";
  const session = event.agent ? `a ${event.agent} session's` : "the session's";
  const out = [
    `# Uncommitted work ${where}`,
    "",
    `Drafted ${event.occasion} from ${session} checkout: its transcript could not be read (${event.why}), so this handoff holds neither the person's words nor the agent's, only the state the session left.`,
    "",
    "## Where things stand",
    "",
  ];
  const head = facts.head ? ` at \`${facts.head.slice(0, 12)}\`` : "";
  const ahead = facts.ahead ? `, ${facts.ahead} commit${facts.ahead === 1 ? "" : "s"} ahead of \`${facts.upstream}\`` : facts.branch && !facts.upstream ? ", with no upstream" : "";
  out.push(`- Branch \`${facts.branch ?? "(detached)"}\`${head}${ahead}.`);
  out.push(`- ${facts.changed} uncommitted change${facts.changed === 1 ? "" : "s"}, in this checkout only:`);
  for (const change of facts.changes) out.push(`  - \`${change.path}\` (${change.status})`);
  if (facts.changed > facts.changes.length) out.push(`  - and ${facts.changed - facts.changes.length} more not listed`);
  if (facts.commits.length > 0) {
    out.push("- Latest commits:");
    for (const commit of facts.commits) out.push(`  - \`${commit.hash}\` ${oneLine(commit.subject)}`);
  }
  out.push(
    "",
    "## Unfinished work",
    "",
    "The uncommitted changes above exist only in this checkout. What they are for was not recorded: ask the person what the session was doing before continuing it, and do not commit, stash or discard them on a guess.",
    "",
  );
  return out.join("\n");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > CHECKOUT_LIMITS.subjectChars ? `${flat.slice(0, CHECKOUT_LIMITS.subjectChars - 1)}…` : flat;
}

/** What a `git status --porcelain=v1` code says of an entry, in words. */
export function statusWord(code: string): string {
  if (code === "??") return "untracked";
  const letter = code.replace(/[ .]/g, "")[0] ?? "";
  return { M: "modified", A: "added", D: "deleted", R: "renamed", C: "copied", U: "conflicted", T: "type changed" }[letter] ?? "changed";
}
