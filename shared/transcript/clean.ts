import { redactText } from "../redact/index.js";

/**
 * Text from a transcript, held raw up to a cap while the drafter reads, and finished once when
 * the draft is made: redacted first, cut after. A cut made before redaction could leave part of
 * a secret that no rule recognises any more; so the held text is cut only at its (generous) cap,
 * its last {@link CUT_MARGIN} characters are dropped when it was cut there (where a secret could
 * straddle the cut), and the final cut to what a handoff shows comes after redaction.
 */

/** Longer than any secret the redaction rules recognise on one line (a PEM block is not one line and is redacted whole). */
export const CUT_MARGIN = 1024;

/** A text as the drafter holds it: at most its cap, and whether the original went on. */
export interface Held {
  text: string;
  at?: string;
  cut: boolean;
}

/** Holds `text` up to `cap` characters (never half a surrogate pair). */
export function hold(text: string, cap: number, at?: string): Held {
  const trimmed = text.trim();
  const cut = trimmed.length > cap;
  const kept = cut ? wholeChars(trimmed.slice(0, cap)) : trimmed;
  return at === undefined ? { text: kept, cut } : { text: kept, at, cut };
}

/** Counts what the finishing redaction replaced, across every text of one draft (a text kept twice counts once). */
export class Finisher {
  redacted = 0;
  private readonly done = new Map<string, string>();

  /**
   * The held text redacted, then cut to `max` characters (an ellipsis marks a cut).
   *
   * @example
   * ```ts
   * new Finisher().text(hold("token ghp_" + "x".repeat(36) + " then more", 16384), 20) // "token [REDACTED:gi…"
   * ```
   */
  text(held: Held, max: number): string {
    let text = this.done.get(held.text);
    if (text === undefined) {
      const result = redactText(held.text);
      this.redacted += result.findings.length;
      this.done.set(held.text, result.text);
      text = result.text;
    }
    if (held.cut) text = wholeChars(text.slice(0, Math.max(0, text.length - CUT_MARGIN))).trimEnd();
    return clip(text, max, held.cut);
  }
}

/** `text` cut to `max` characters, an ellipsis marking the cut (also when the text was cut before). */
export function clip(text: string, max: number, alreadyCut = false): string {
  if (text.length <= max) return alreadyCut ? `${text}…` : text;
  return `${wholeChars(text.slice(0, max - 1)).trimEnd()}…`;
}

function wholeChars(text: string): string {
  return /[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text;
}
