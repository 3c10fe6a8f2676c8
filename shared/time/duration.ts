import { HandoffError } from "../errors.js";

const UNIT_SECONDS = { w: 604_800, d: 86_400, h: 3_600, m: 60, s: 1 } as const;
type Unit = keyof typeof UNIT_SECONDS;
const UNITS = Object.keys(UNIT_SECONDS) as Unit[];
const PART = /(\d+)\s*([wdhms])/gy;

/**
 * Parses a duration flag value into whole seconds: a number with a unit (`90s`, `30m`, `12h`,
 * `7d`, `1w`), several units from largest to smallest (`1d12h`, `1h 30m`), or plain seconds
 * (`3600`). Zero, negatives, fractions and unknown units are `invalid_option` naming `flag`.
 *
 * @example
 * ```ts
 * parseDuration("12h") // 43200
 * parseDuration("1h30m") // 5400
 * parseDuration("7x") // throws HandoffError("invalid_option", "--expires: '7x' is not a duration ...")
 * ```
 */
export function parseDuration(text: string, flag = "--expires", whyNotZero = "a link needs at least one second to live"): number {
  const input = text.trim().toLowerCase();
  const invalid = (why: string) =>
    new HandoffError("invalid_option", `${flag}: '${text}' ${why}`, {
      hint: `use a number with a unit, like ${flag} 30m, 12h, 7d or 1w (or plain seconds, like 3600)`,
    });
  let seconds: number;
  if (/^\d+$/.test(input)) {
    seconds = Number(input);
  } else {
    seconds = 0;
    let consumed = 0;
    let previous = -1;
    PART.lastIndex = 0;
    for (let match = PART.exec(input); match !== null; match = PART.exec(input)) {
      const rank = UNITS.indexOf(match[2] as Unit);
      if (rank <= previous) throw invalid("repeats a unit or lists units out of order; write them largest first, like 1d12h");
      previous = rank;
      seconds += Number(match[1]) * UNIT_SECONDS[match[2] as Unit];
      consumed = PART.lastIndex;
      while (input[consumed] === " ") consumed++;
      PART.lastIndex = consumed;
    }
    if (consumed === 0 || consumed !== input.length) throw invalid("is not a duration");
  }
  if (!Number.isSafeInteger(seconds)) throw invalid("is too long");
  if (seconds === 0) throw invalid(`is zero; ${whyNotZero}`);
  return seconds;
}

/**
 * Formats whole seconds exactly, largest units first, so `parseDuration` reads it back.
 *
 * @example
 * ```ts
 * formatDuration(5400) // "1h 30m"
 * formatDuration(1_209_600) // "2w"
 * formatDuration(0) // "0s"
 * ```
 */
export function formatDuration(seconds: number): string {
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new HandoffError("internal", `formatDuration needs whole non-negative seconds, got ${seconds}`);
  }
  const parts: string[] = [];
  let rest = seconds;
  for (const unit of UNITS) {
    const count = Math.floor(rest / UNIT_SECONDS[unit]);
    rest -= count * UNIT_SECONDS[unit];
    if (count > 0) parts.push(`${count}${unit}`);
  }
  return parts.length === 0 ? "0s" : parts.join(" ");
}
