// The page's one element for an instant: the words from instantWords, the exact value in datetime
// (for machines) and in the tooltip (for a reader who wants the UTC instant).
import { instantWords } from "./words.js";

/** A <time> for `iso`, or the raw text when it is not a timestamp (a hand-written created_at). */
export function timeNode(iso: string): Node {
  const words = instantWords(iso);
  if (words === undefined) return document.createTextNode(iso);
  const time = document.createElement("time");
  time.dateTime = iso;
  time.textContent = words;
  time.title = `${new Date(iso).toISOString().replace(".000Z", "Z")} (UTC)`;
  return time;
}
