import { checkpointOrientation, kernelOrientation } from "./kernel.js";
import { findSections } from "./sections.js";
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
  const found = fromSource(doc);
  if (found.objective === undefined) {
    const fallback = metadataString(doc.metadata, "resume_focus") ?? metadataString(doc.metadata, "summary") ?? metadataString(doc.metadata, "title");
    if (fallback !== undefined) found.objective = fallback;
  } else {
    const focus = metadataString(doc.metadata, "resume_focus");
    if (focus !== undefined && !found.objective.includes(focus)) found.objective = `${found.objective}\nResume focus: ${focus}`;
  }
  return bound(found);
}

/** Why a source cannot orient a session, by what it lacks. */
export const MISSING_EXPLANATION = {
  objective: "it states no objective: add a section or label named Objective, Goal, Intent or Task (or a title, summary or resume_focus)",
  current_state: "it says nowhere where things stand: add a section named Current state, Status or Next steps (a kernel manifest: an execution entry)",
} as const;

export type MissingPart = keyof typeof MISSING_EXPLANATION;

/**
 * Whether an orientation is enough to resume: an objective and a current state. A list of
 * unfinished work or next steps counts as current state (it says where things stand), and so
 * does a kernel manifest's execution section (extracted into `current_state`).
 *
 * @example
 * ```ts
 * assessSufficiency({ objective: "x", unfinished: [], ... }) // { sufficient: false, missing: ["current_state"] }
 * ```
 */
export function assessSufficiency(o: Orientation): { sufficient: boolean; missing: MissingPart[] } {
  const missing: MissingPart[] = [];
  if (!o.objective) missing.push("objective");
  if (!o.current_state && o.unfinished.length === 0) missing.push("current_state");
  return { sufficient: missing.length === 0, missing };
}

function fromSource(doc: SourceDocument): Orientation {
  switch (doc.format) {
    case "kernel.handoff/v1":
      return kernelOrientation(doc.manifest ?? parseJson(doc.body));
    case "kernel.checkpoint/v1":
      return checkpointOrientation(doc.manifest ?? parseJson(doc.body));
    case "ce-handoff/v1":
    case "markdown":
      return fromSections(stripFrontmatter(doc.body), true);
    case "text":
      return fromSections(doc.body, false);
  }
}

function fromSections(body: string, headings: boolean): Orientation {
  const out = emptyOrientation();
  const objective: string[] = [];
  const state: string[] = [];
  for (const { kind, blocks } of findSections(body, { headings })) {
    if (kind === "objective") objective.push(...blocks);
    else if (kind === "current_state") state.push(...blocks);
    else out[kind].push(...blocks);
  }
  if (objective.length > 0) out.objective = objective.join("\n");
  if (state.length > 0) out.current_state = state.join("\n");
  return out;
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
