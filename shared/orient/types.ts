import type { SourceFormat } from "../document/sniff.js";

/**
 * A selected resume source after the client read and parsed what metadata it has.
 * `body` is the text after any frontmatter (the whole text for JSON and plain text);
 * `manifest` is the parsed JSON of a kernel manifest or checkpoint.
 */
export interface SourceDocument {
  format: SourceFormat;
  body: string;
  metadata: Record<string, unknown>;
  manifest?: unknown;
}

/**
 * What a fresh session needs to orient, as found in the source. Every string is trimmed and
 * bounded (see ORIENTATION_LIMITS); lists keep source order.
 */
export interface Orientation {
  objective?: string;
  progress: string[];
  decisions: string[];
  current_state?: string;
  unfinished: string[];
  /** Verification performed and failures observed. */
  verification: string[];
  /** Approaches tried that did not work ("Tried and failed"): not to re-explore without new evidence. */
  failed: string[];
  warnings: string[];
  references: string[];
}

export type SectionKind = "objective" | "progress" | "decisions" | "current_state" | "unfinished" | "verification" | "failed" | "warnings" | "references";

export const ORIENTATION_LIMITS = {
  /** objective and current_state. */
  textChars: 2000,
  /** One list item. */
  itemChars: 500,
  /** Items per list. */
  items: 50,
} as const;

/**
 * An orientation with nothing found yet.
 *
 * @example
 * ```ts
 * emptyOrientation().progress // []
 * ```
 */
export function emptyOrientation(): Orientation {
  return { progress: [], decisions: [], unfinished: [], verification: [], failed: [], warnings: [], references: [] };
}
