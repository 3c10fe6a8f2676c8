import { assessSufficiency, type Evidence, MISSING_EXPLANATION, type MissingPart, readOrientation } from "./extract.js";
import { countContentWords, EMPTY_BELOW } from "./substance.js";
import type { Orientation, SourceDocument } from "./types.js";

/**
 * sufficient: an objective and a current state, in the source's own words.
 * unsure: a reader misses one of them or finds it thin, or recovers neither from a body that does
 * say something (prose without labels, a log, another language): written with a warning, never lost.
 * insufficient: it says next to nothing (a word, "see chat", a file list, labels with nothing
 * after them): create refuses it unless told to keep it. Only what is clearly empty is refused:
 * refusing a real handoff at the end of a session loses it, accepting a thin one costs a warning.
 */
export type Verdict = "sufficient" | "unsure" | "insufficient";

export interface Sufficiency {
  verdict: Verdict;
  /** Whether resume orients from it: both parts there and the body not empty (else it stops, as the contract says). */
  sufficient: boolean;
  /** Parts with no content word at all. */
  missing: MissingPart[];
  /** Parts that are there but thin: an objective of one word, or only a title or summary standing in for it. */
  thin: MissingPart[];
  /** The body says next to nothing: fewer than EMPTY_BELOW content words outside its labels. */
  empty: boolean;
}

/** Why a part looks thin, by part. */
export const THIN_EXPLANATION: Record<MissingPart, string> = {
  objective: "its objective is a word or two, or only a title or summary stands in for it: say in the body what the work is for (Objective: ..., Goal: ...)",
  current_state: "it barely says where things stand: say what works, what fails and what comes next (Status: ..., Next: ...)",
};

export const EMPTY_EXPLANATION = 'it says next to nothing: a word, a pointer elsewhere ("see chat"), a list of files or labels with nothing after them';

/**
 * The verdict on an orientation and its evidence (readOrientation): one judgement that resume,
 * create, the MCP tool and the hook all act on (docs/resume.md says what each does with it).
 *
 * @example
 * ```ts
 * const { orientation, evidence } = readOrientation({ format: "text", metadata: {}, body: "Goal: ship the parser.\nStatus: tests red." });
 * judgeSufficiency(orientation, evidence) // { verdict: "sufficient", sufficient: true, missing: [], thin: [], empty: false }
 * ```
 */
export function judgeSufficiency(o: Orientation, evidence: Evidence): Sufficiency {
  const { missing } = assessSufficiency(o);
  const empty = evidence.substance < EMPTY_BELOW;
  const thin: MissingPart[] = [];
  if (!missing.includes("objective") && (evidence.objective === "metadata" || countContentWords(o.objective ?? "", 2) < 2)) thin.push("objective");
  // A title alone names a subject, not the work: with nothing said of where things stand it is thin.
  if (!missing.includes("objective") && !thin.includes("objective") && evidence.objective === "title" && missing.includes("current_state")) thin.push("objective");
  const verdict: Verdict = empty ? "insufficient" : missing.length > 0 || thin.length > 0 ? "unsure" : "sufficient";
  return { verdict, sufficient: verdict !== "insufficient" && missing.length === 0, missing, thin, empty };
}

/**
 * Orientation and verdict of a source in one read.
 *
 * @example
 * ```ts
 * judgeSource({ format: "text", metadata: {}, body: "see chat" }).sufficiency.verdict // "insufficient"
 * judgeSource({ format: "markdown", metadata: {}, body: "# Parser\n\nFigure out the flaky test." }).sufficiency.verdict // "unsure"
 * ```
 */
export function judgeSource(doc: SourceDocument): { orientation: Orientation; sufficiency: Sufficiency } {
  const { orientation, evidence } = readOrientation(doc);
  return { orientation, sufficiency: judgeSufficiency(orientation, evidence) };
}

/**
 * The verdict in sentences: what the source lacks (next to nothing said, no objective, no
 * current state), and what is there but thin (not said of an empty source: nothing in it can be
 * thin). Both empty for a sufficient source.
 *
 * @example
 * ```ts
 * explainSufficiency({ verdict: "unsure", sufficient: false, missing: ["current_state"], thin: [], empty: false })
 * // { missing: [MISSING_EXPLANATION.current_state], thin: [] }
 * ```
 */
export function explainSufficiency(s: Sufficiency): { missing: string[]; thin: string[] } {
  const missing = s.missing.map((part) => MISSING_EXPLANATION[part]);
  return s.empty ? { missing: [EMPTY_EXPLANATION, ...missing], thin: [] } : { missing, thin: s.thin.map((part) => THIN_EXPLANATION[part]) };
}
