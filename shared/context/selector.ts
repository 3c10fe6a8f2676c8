import * as z from "zod/mini";
import { en } from "zod/v4/locales";
import { selectorIssues } from "../kernel/selector-rules.js";
import type { SELECTION_OUTCOMES } from "../kernel/receipt.js";
import { type ContextSelector, kernelSchemas } from "../kernel/schema.js";
import { markdownHeadings, splitLines } from "../text/markdown.js";
import { DEFAULT_GREP_CONTEXT, grepMatcher, grepWindows, MAX_GREP_CONTEXT } from "./grep.js";

/** A kernel context selector v1 (`context.required[]` / `context.optional[]`). */
export type { ContextSelector };

/** The receipt's outcome vocabulary: a piece's outcome is what the receipt records. */
export type SelectionOutcome = (typeof SELECTION_OUTCOMES)[number];

/** One resolved selector: what it asked for, why, and the text it yields. */
export interface Piece {
  /** Human-readable selector summary, e.g. `CHANGELOG.md lines 1-30`. */
  selector: string;
  reason: string;
  text: string;
  /** ceil(chars / 4). */
  estimated_tokens: number;
  outcome: SelectionOutcome;
  note?: string;
}

/**
 * What the client found for a selector. For a path: the file's text, or `missing` (absent,
 * unreadable, not a regular file: say which in `note`), or `forbidden` (never read). For a
 * git_diff: the diff text, or no `diff` when the revisions could not be resolved.
 */
export type SelectorSource = FileSource | DiffSource;
export interface FileSource {
  text?: string;
  missing?: boolean;
  forbidden?: boolean;
  note?: string;
}
export interface DiffSource {
  diff?: string;
  note?: string;
}

// The kernel schema's selector; a grep context below zero is a selector problem here. Built on
// first use; its problems are said in zod's own English words, whichever zod built them.
let selectorSchema: ReturnType<typeof buildSelectorSchema> | undefined;
const buildSelectorSchema = () => z.extend(kernelSchemas().contextSelectorSchema, { context: z.optional(z.int().check(z.minimum(0))) });
let english: ReturnType<typeof en> | undefined;

/**
 * Token estimate used everywhere in compile and receipts: directional, not exact.
 *
 * @example
 * ```ts
 * estimateTokens("hello") // 2
 * ```
 */
export function estimateTokens(text: string): number {
  // Kernel's reference: round(len(text) / 4), len in code points, ties to even (Python's round).
  let points = 0;
  for (const _ of text) points++;
  const quarter = points / 4;
  const floor = Math.floor(quarter);
  const rest = quarter - floor;
  return rest > 0.5 || (rest === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
}

/**
 * A one-line, human-readable summary of a selector.
 *
 * @example
 * ```ts
 * selectorSummary({ path: "a.md", heading: "## X" }) // 'a.md heading "## X"'
 * selectorSummary({ git_diff: "v1..v2" }) // "git_diff v1..v2"
 * ```
 */
export function selectorSummary(selector: ContextSelector): string {
  const s = selector as Record<string, unknown>;
  if (typeof s.git_diff === "string") return `git_diff ${s.git_diff}`;
  const path = typeof s.path === "string" ? s.path : "(no path)";
  if (typeof s.lines === "string") return `${path} lines ${s.lines}`;
  if (typeof s.heading === "string") return `${path} heading ${JSON.stringify(s.heading)}`;
  if (typeof s.grep === "string") {
    return `${path} grep ${JSON.stringify(s.grep)} context ${typeof s.context === "number" ? s.context : DEFAULT_GREP_CONTEXT}`;
  }
  return path;
}

/**
 * Why a selector cannot be resolved as written, or undefined. Checked before anything is read:
 * exactly one of path / git_diff, at most one refinement (lines / heading / grep) and only with
 * a path, `context` only with grep, and a path that stays inside the repository.
 *
 * @example
 * ```ts
 * selectorProblem({ path: "../x", lines: "1-2" }) // "path escapes the repository"
 * ```
 */
export function selectorProblem(selector: unknown): string | undefined {
  if (typeof selector !== "object" || selector === null || Array.isArray(selector)) return "a selector must be an object";
  selectorSchema ??= buildSelectorSchema();
  english ??= en();
  const parsed = selectorSchema.safeParse(selector, { error: english.localeError });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `selector is malformed${issue ? ` at ${issue.path.join(".") || "(root)"}: ${issue.message}` : ""}`;
  }
  const issue = selectorIssues(parsed.data)[0];
  if (issue === undefined) return undefined;
  return issue.at.length === 0 ? `selector ${issue.message}` : `${issue.at.join(".")} ${issue.message}`;
}

/**
 * Resolves one selector against what the client read for it.
 *
 * @example
 * ```ts
 * resolveSelector({ path: "a.md", lines: "2-3", reason: "r" }, { text: "1\n2\n3\n4" })
 * // { selector: "a.md lines 2-3", reason: "r", text: "2\n3", estimated_tokens: 1, outcome: "resolved" }
 * ```
 */
export function resolveSelector(selector: ContextSelector, source: SelectorSource): Piece {
  const summary = selectorSummary(selector);
  const reason = typeof selector.reason === "string" ? selector.reason : "";
  const piece = (outcome: Piece["outcome"], text: string, note?: string): Piece => ({
    selector: summary,
    reason,
    text,
    estimated_tokens: estimateTokens(text),
    outcome,
    ...(note === undefined ? {} : { note }),
  });
  const problem = selectorProblem(selector);
  if (problem !== undefined) return piece("invalid", "", problem);

  if (selector.git_diff !== undefined) {
    const diff = "diff" in source ? source.diff : undefined;
    if (diff === undefined) return piece("missing", "", source.note ?? "diff unavailable (unknown revision?)");
    return diff === "" ? piece("empty", "", "no changes between the revisions") : piece("resolved", diff);
  }
  // Both shapes have only optional keys, so `in` cannot narrow; a path selector reads file fields.
  const file: FileSource = source;
  if (file.forbidden) return piece("invalid", "", "forbidden");
  if (file.missing || file.text === undefined) return piece("missing", "", source.note ?? "file missing");
  const lines = splitLines(file.text);
  const found = refine(selector, file.text, lines);
  return piece(found.text.trim() === "" && found.outcome === "resolved" ? "empty" : found.outcome, found.text, found.note);
}

type Refined = { outcome: Piece["outcome"]; text: string; note?: string };

function refine(selector: ContextSelector, text: string, lines: string[]): Refined {
  if (selector.lines !== undefined) return byLines(selector.lines, lines);
  if (selector.heading !== undefined) return byHeading(selector.heading, lines);
  if (selector.grep !== undefined) return byGrep(selector.grep, selector.context ?? DEFAULT_GREP_CONTEXT, lines);
  return text.trim() === "" ? { outcome: "empty", text, note: "file is empty" } : { outcome: "resolved", text };
}

function byLines(range: string, lines: string[]): Refined {
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(range);
  const from = Number(match?.[1]);
  const to = Number(match?.[2]);
  if (!match || from < 1 || from > to) return { outcome: "invalid", text: "", note: `lines must be "A-B" with 1 <= A <= B, got ${JSON.stringify(range)}` };
  const count = lines.length === 1 && lines[0] === "" ? 0 : lines.length;
  if (from > count) return { outcome: "empty", text: "", note: `lines ${from}-${to} requested, the file has ${count} line${count === 1 ? "" : "s"}` };
  const end = Math.min(to, count);
  const text = lines.slice(from - 1, end).join("\n");
  return end < to ? { outcome: "resolved", text, note: `lines ${from}-${to} requested, the file has ${count} lines: clamped to ${from}-${end}` } : { outcome: "resolved", text };
}

function byHeading(wanted: string, lines: string[]): Refined {
  const parsed = /^\s*(#{1,6})\s+(.*?)\s*#*\s*$/.exec(wanted);
  const level = parsed?.[1]?.length;
  const title = (parsed?.[2] ?? wanted).trim();
  const headings = markdownHeadings(lines);
  const loose = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
  const sameLevel = (h: { level: number }) => level === undefined || h.level === level;
  let index = headings.findIndex((h) => sameLevel(h) && h.text === title);
  let note: string | undefined;
  if (index < 0) {
    index = headings.findIndex((h) => sameLevel(h) && loose(h.text) === loose(title));
    if (index >= 0) note = "heading matched ignoring case and spacing";
  }
  const heading = headings[index];
  if (!heading) return { outcome: "missing", text: "", note: "heading not found" };
  const next = headings.slice(index + 1).find((h) => h.level <= heading.level);
  const section = lines.slice(heading.line, next?.line ?? lines.length);
  while (section.length > 0 && (section[section.length - 1] ?? "").trim() === "") section.pop();
  const text = section.join("\n");
  if (section.length <= heading.endLine - heading.line + 1) {
    return { outcome: "empty", text, note: note ? `${note}; the section has no content` : "the section has no content" };
  }
  return { outcome: "resolved", text, ...(note === undefined ? {} : { note }) };
}

function byGrep(pattern: string, context: number, lines: string[]): Refined {
  const matcher = grepMatcher(pattern);
  const span = Math.min(context, MAX_GREP_CONTEXT);
  const result = grepWindows(lines, matcher, span);
  const notes: string[] = [];
  if (matcher.mode === "literal") notes.push(`pattern matched as literal text (${matcher.why})`);
  if (span < context) notes.push(`context clamped to ${MAX_GREP_CONTEXT}`);
  if (result.stopped === "match limit") notes.push(`stopped after ${result.matches} matching lines`);
  if (result.stopped === "step budget") notes.push("search stopped early: the pattern is too costly for this file");
  if (result.windows.length === 0) {
    return { outcome: "empty", text: "", note: ["no line matches", ...notes].join("; ") };
  }
  const text = result.windows.map((w) => lines.slice(w.from, w.to + 1).join("\n")).join("\n--\n");
  const where = result.windows.map((w) => `${w.from + 1}-${w.to + 1}`).join(", ");
  notes.unshift(`${result.matches} matching line${result.matches === 1 ? "" : "s"}; lines ${where}`);
  return { outcome: "resolved", text, note: notes.join("; ") };
}
