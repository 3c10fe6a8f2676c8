/**
 * The agent's compaction summary, read into labelled sections a handoff can place. Claude Code
 * writes it as a user turn (`isCompactSummary: true`: "This session is being continued ... Analysis:
 * ... Summary: 1. Primary Request and Intent: ... 9. Optional Next Step: ...") and passes it to
 * PostCompact hooks as `compact_summary`; Codex writes a `compacted` rollout line whose summary
 * is free text. What the agent wrote stays its words: this only finds where each part is.
 */

/** Where a part of the summary goes in a handoff. */
export type SummaryRole = "objective" | "requests" | "state" | "decisions" | "failed" | "unfinished" | "references" | "other";

export interface SummarySection {
  /** The label as the summary wrote it ("Errors and fixes"), or undefined for unlabelled text. */
  label?: string;
  role: SummaryRole;
  text: string;
}

/** Labels by what they say, first match wins. Unknown labels do not split a section. */
const ROLES: [RegExp, SummaryRole][] = [
  [/\ball user messages\b|\buser messages\b/i, "requests"],
  [/\bprimary request\b|\bintent\b|\bobjective\b|\bgoals?\b|\btask description\b|\buser'?s? request\b/i, "objective"],
  [/\berrors?\b|\bfix(?:es)?\b|\bfailed\b|\bdidn'?t work\b/i, "failed"],
  [/\bpending\b|\bremaining\b|\bnext steps?\b|\bto ?do\b|\bwhat remains\b|\bopen (?:questions|issues)\b/i, "unfinished"],
  [/\bcurrent work\b|\bcurrent state\b|\bcurrent progress\b|\bprogress\b|\bstatus\b|\bwhere things stand\b/i, "state"],
  [/\bproblem solving\b|\bdecisions?\b|\bconstraints?\b|\btechnical concepts\b|\bkey concepts\b|\bpreferences\b/i, "decisions"],
  [/\bfiles\b|\bcode sections\b|\breferences\b|\bartifacts\b/i, "references"],
];

/** A line that is only a label: "1. Primary Request and Intent:", "## Current Work", "**Pending Tasks**:". */
const LABEL_LINE = /^(?:#{1,4}[ \t]+|\d{1,2}\.[ \t]+)?(?:\*\*)?([A-Za-z][A-Za-z0-9 &/'(),-]{2,60}?)(?:\*\*)?[ \t]*:?(?:\*\*)?[ \t]*:?[ \t]*$/;

/**
 * The summary without the agent's wrapping: Claude Code's preamble, its "Analysis:" part (its
 * working notes, kept out: the summary proper follows), and the closing instructions addressed to
 * the model ("Please continue the conversation ..."), which are not the session's state; Codex's
 * fixed prefix.
 *
 * @example
 * ```ts
 * summaryBody("This session is being continued ...\n\nAnalysis:\nnotes\n\nSummary:\n1. Primary Request and Intent:\n   Ship it\n\nPlease continue the conversation from where we left off ...")
 * // "1. Primary Request and Intent:\n   Ship it"
 * ```
 */
export function summaryBody(text: string): string {
  let body = text.replace(/\r\n/g, "\n");
  const tagged = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(body);
  if (tagged?.[1] !== undefined) body = tagged[1];
  else {
    const summary = /^Summary:[ \t]*$/m.exec(body);
    if (summary) body = body.slice(summary.index + summary[0].length);
  }
  body = body.replace(/^This session is being continued from a previous conversation[^\n]*\n?(?:The summary below[^\n]*\n?)?/, "");
  body = body.replace(/^Another language model started to solve this problem[^\n]*:[ \t]*\n?/, "");
  const closing = /^(?:If you need specific details from before compaction|Please continue the conversation from where we left)/m.exec(body);
  if (closing) body = body.slice(0, closing.index);
  return body.trim();
}

/**
 * Splits a summary body into its labelled sections, each with the handoff section it maps to.
 * Text before the first recognised label, and a summary with none, is one unlabelled section
 * (role "state": the agent's account of where things stand).
 *
 * @example
 * ```ts
 * summarySections("1. Primary Request and Intent:\n   Ship the parser\n4. Errors and fixes:\n   - tsc failed: fixed the import")
 * // [{ label: "Primary Request and Intent", role: "objective", text: "Ship the parser" },
 * //  { label: "Errors and fixes", role: "failed", text: "- tsc failed: fixed the import" }]
 * ```
 */
export function summarySections(body: string): SummarySection[] {
  const sections: SummarySection[] = [];
  let current: SummarySection = { role: "state", text: "" };
  const lines: string[] = [];
  const close = () => {
    current.text = dedent(lines.splice(0)).trim();
    if (current.text !== "" || current.label !== undefined) sections.push(current);
  };
  for (const line of body.split("\n")) {
    const label = line.length <= 80 && !/^\s/.test(line) ? LABEL_LINE.exec(line)?.[1]?.trim() : undefined;
    const role = label === undefined ? undefined : roleOf(label);
    if (label !== undefined && role !== undefined) {
      close();
      current = { label, role, text: "" };
    } else {
      lines.push(line);
    }
  }
  close();
  return sections.filter((s) => s.text !== "");
}

function roleOf(label: string): SummaryRole | undefined {
  for (const [pattern, role] of ROLES) if (pattern.test(label)) return role;
  return undefined;
}

/** Removes the indentation every non-blank line shares (the summary indents each section's body). */
function dedent(lines: string[]): string {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(Math.min(cut, /^[ \t]*/.exec(l)?.[0].length ?? 0))).join("\n");
}
