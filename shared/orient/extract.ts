import { readProseCues } from "./cues.js";
import { checkpointOrientation, kernelOrientation } from "./kernel.js";
import { readSections } from "./sections.js";
import { countContentWords, SUBSTANCE_COUNTED } from "./substance.js";
import { emptyOrientation, ORIENTATION_LIMITS, type Orientation, type SourceDocument } from "./types.js";

/**
 * Recovers the continuity context of a resume source written by anyone: kernel JSON by its
 * fields, Markdown by heading and label meaning, plain text by "goal:" style labels. What the
 * source does not say stays absent; nothing is invented.
 *
 * @example
 * ```ts
 * extractOrientation({ format: "markdown", metadata: {}, body: "## Goal\nShip it\n## Next steps\n- tag" })
 * // { objective: "Ship it", unfinished: ["tag"], progress: [], decisions: [], ... }
 * ```
 */
export function extractOrientation(doc: SourceDocument): Orientation {
  return readOrientation(doc).orientation;
}

/** What a source's orientation rests on: where its objective came from, and how much it says. */
export interface Evidence {
  /**
   * "text": the source's own words (a section, a label, a sentence, a manifest's goal); "title":
   * only its title heading (or a checklist's); "focus": its resume_focus; "metadata": only its
   * summary or title field.
   */
  objective?: "text" | "title" | "focus" | "metadata";
  /** Content words in the body outside section labels (substance.ts), counted to a small bound. */
  substance: number;
}

/**
 * The orientation (extractOrientation) and the evidence sufficiency weighs: whether the
 * objective is the source's own words or only its frontmatter, and how much the body says.
 *
 * @example
 * ```ts
 * readOrientation({ format: "markdown", metadata: { title: "Parser" }, body: "## Status\nTests red." }).evidence
 * // { objective: "metadata", substance: 2 }
 * ```
 */
export function readOrientation(doc: SourceDocument): { orientation: Orientation; evidence: Evidence } {
  const { orientation: found, substance, titleOnly } = fromSource(doc);
  const evidence: Evidence = { substance };
  const focus = metadataString(doc.metadata, "resume_focus");
  if (found.objective !== undefined) {
    evidence.objective = titleOnly ? "title" : "text";
    if (focus !== undefined && !found.objective.includes(focus)) found.objective = `${found.objective}\nResume focus: ${focus}`;
  } else if (focus !== undefined) {
    found.objective = focus;
    evidence.objective = "focus";
  } else {
    const fallback = metadataString(doc.metadata, "summary") ?? metadataString(doc.metadata, "title");
    if (fallback !== undefined) {
      found.objective = fallback;
      evidence.objective = "metadata";
    }
  }
  return { orientation: bound(found), evidence };
}

/** Why a source cannot orient a session, by what it lacks. */
export const MISSING_EXPLANATION = {
  objective: "it states no objective: add a section or label named Objective, Goal, Intent or Task (or a title, summary or resume_focus)",
  current_state: "it says nowhere where things stand: add a section or label named Current state, Status, Done or Next steps (a kernel manifest: an execution entry)",
} as const;

export type MissingPart = keyof typeof MISSING_EXPLANATION;

/**
 * Whether an orientation has both parts a resume needs: an objective and a current state, each
 * with at least one content word ("Status: TBD" states nothing). Unfinished work, next steps and
 * progress count as current state (they say where things stand), and so does a kernel manifest's
 * execution section (extracted into `current_state`). The verdict that weighs how much the
 * source says as well is judgeSufficiency's (sufficiency.ts).
 *
 * @example
 * ```ts
 * assessSufficiency({ objective: "x", unfinished: [], ... }) // { sufficient: false, missing: ["current_state"] }
 * ```
 */
export function assessSufficiency(o: Orientation): { sufficient: boolean; missing: MissingPart[] } {
  const missing: MissingPart[] = [];
  if (!says(o.objective)) missing.push("objective");
  if (!says(o.current_state) && !o.unfinished.some(says) && !o.progress.some(says)) missing.push("current_state");
  return { sufficient: missing.length === 0, missing };
}

const says = (text: string | undefined): boolean => text !== undefined && countContentWords(text, 1) > 0;

interface Found {
  orientation: Orientation;
  substance: number;
  /** The objective is only the body's title (no section, label or sentence states one). */
  titleOnly?: boolean;
}

function fromSource(doc: SourceDocument): Found {
  switch (doc.format) {
    case "kernel.handoff/v1":
      return fromFields(kernelOrientation(doc.manifest ?? parseJson(doc.body)));
    case "kernel.checkpoint/v1":
      return fromFields(checkpointOrientation(doc.manifest ?? parseJson(doc.body)));
    case "ce-handoff/v1":
    case "markdown":
      return fromSections(stripFrontmatter(doc.body));
    case "text":
      // "text" only means no ATX heading was seen: a setext heading ("Goal" over "====") is still one.
      return fromSections(doc.body);
  }
}

/** A manifest's substance is what its fields say (its JSON keys and punctuation say nothing). */
function fromFields(orientation: Orientation): Found {
  const { objective = "", current_state = "", ...lists } = orientation;
  const text = [objective, current_state, ...Object.values(lists).flat()].join("\n");
  return { orientation, substance: countContentWords(text, SUBSTANCE_COUNTED) };
}

function fromSections(body: string): Found {
  const reading = readSections(body);
  const out = emptyOrientation();
  const objective: string[] = [];
  const state: string[] = [];
  for (const { kind, blocks } of reading.sections) {
    if (kind === "objective") objective.push(...blocks);
    else if (kind === "current_state") state.push(...blocks);
    else out[kind].push(...blocks);
  }
  // A checklist outside every section: what is ticked is done, the rest is still to do.
  const { checklist } = reading;
  out.progress.push(...checklist.done);
  out.unfinished.push(...checklist.open);
  // A body with no section at all is read as prose, sentence by sentence, for what it leaves unsaid.
  const cues = reading.sections.length === 0 ? readProseCues(reading.prose) : undefined;
  if (cues) {
    if (objective.length === 0 && cues.objective !== undefined) objective.push(cues.objective);
    if (state.length === 0 && cues.state.length > 0) state.push(cues.state.join(" "));
    if (out.unfinished.length === 0) out.unfinished.push(...cues.next);
  }
  // Otherwise a title names the work ("# Migrate the billing jobs" over its checklist), and
  // failing that, the subject a prose report opens with.
  const title = reading.title ?? (checklist.done.length + checklist.open.length > 0 ? checklist.title : undefined);
  const titleOnly = objective.length === 0 && title !== undefined && countContentWords(title, 1) > 0;
  if (titleOnly) objective.push(title);
  if (objective.length === 0 && cues?.subject !== undefined) objective.push(cues.subject);
  if (objective.length > 0) out.objective = objective.join("\n");
  if (state.length > 0) out.current_state = state.join("\n");
  return { orientation: out, substance: reading.substance, titleOnly };
}

// The client passes the body after frontmatter; a body that still starts with a frontmatter
// block (pasted whole) would otherwise read its YAML keys as setext headings.
function stripFrontmatter(body: string): string {
  const match = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(body);
  return match ? body.slice(match[0].length) : body;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function metadataString(metadata: Record<string, unknown>, key: string): string | undefined {
  const value = metadata[key];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function bound(o: Orientation): Orientation {
  const list = (items: string[]) =>
    items
      .map((item) => clip(item.trim(), ORIENTATION_LIMITS.itemChars))
      .filter((item) => item !== "")
      .slice(0, ORIENTATION_LIMITS.items);
  const out: Orientation = {
    progress: list(o.progress),
    decisions: list(o.decisions),
    unfinished: list(o.unfinished),
    verification: list(o.verification),
    failed: list(o.failed),
    warnings: list(o.warnings),
    references: list(o.references),
  };
  const objective = o.objective?.trim();
  if (objective) out.objective = clip(objective, ORIENTATION_LIMITS.textChars);
  const state = o.current_state?.trim();
  if (state) out.current_state = clip(state, ORIENTATION_LIMITS.textChars);
  return out;
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  // Never leave half a surrogate pair behind.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}
