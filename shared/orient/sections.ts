import { classifySectionLabel } from "./classify.js";
import { fencedLines, markdownHeadings, splitLines } from "../text/markdown.js";
import type { SectionKind } from "./types.js";

/** One recognised section: its kind and its content as blocks (list items or paragraphs). */
export interface FoundSection {
  kind: SectionKind;
  blocks: string[];
}

interface Marker {
  line: number;
  contentStart: number;
  /** 1-6 for headings; labels sit below every heading level. */
  level: number;
  kind: SectionKind | undefined;
  /** Text after a label on its own line ("**Goal:** ship it"). */
  inline?: string;
}

const LABEL_LEVEL = 7;
const BOLD_LABEL = /^\s*(?:[-*+]\s+)?(?:\*\*|__)([^*_\n]{1,60}?)(?:\*\*|__)\s*(.*)$/;
const PLAIN_LABEL = /^\s*([^\s:#>|`*_-][^:]{0,40}?)\s*:\s*(.*)$/;
const BULLET = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;

/**
 * Sections found by heading or label meaning, in document order. Headings (any level, ATX or
 * setext) when `headings` is true; bold labels (`**Objective:** ...`) and plain labels at a
 * paragraph start (`Goal: ...`, `Next steps:`) always. A section runs to the next heading of the
 * same or higher level, or to the next recognised section at any level; a label with text on its
 * own line runs to the end of its paragraph.
 *
 * @example
 * ```ts
 * findSections("## Goal\nShip it\n\n**Next steps:**\n- test", { headings: true })
 * // [{ kind: "objective", blocks: ["Ship it"] }, { kind: "unfinished", blocks: ["test"] }]
 * ```
 */
export function findSections(body: string, options: { headings: boolean }): FoundSection[] {
  const lines = splitLines(body);
  const fenced = fencedLines(lines);
  const markers = collectMarkers(lines, fenced, options.headings);
  const sections: FoundSection[] = [];
  markers.forEach((marker, index) => {
    if (marker.kind === undefined) return;
    let end = lines.length;
    // Scans stop at the next recognised marker, so together they visit each marker once.
    for (let j = index + 1; j < markers.length; j++) {
      const next = markers[j];
      if (next && (next.level <= marker.level || next.kind !== undefined)) {
        end = next.line;
        break;
      }
    }
    const endsAtBlank = marker.inline !== undefined && marker.inline !== "";
    sections.push({ kind: marker.kind, blocks: toBlocks(lines, fenced, marker, end, endsAtBlank) });
  });
  return sections;
}

function collectMarkers(lines: string[], fenced: Set<number>, withHeadings: boolean): Marker[] {
  const headingAt = new Map(withHeadings ? markdownHeadings(lines, fenced).map((h) => [h.line, h]) : []);
  const markers: Marker[] = [];
  let paragraphStart = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const heading = headingAt.get(i);
    if (heading) {
      markers.push({ line: i, contentStart: heading.endLine + 1, level: heading.level, kind: classifySectionLabel(heading.text) });
      i = heading.endLine;
      paragraphStart = true;
      continue;
    }
    if (!fenced.has(i)) {
      const label = labelOf(line, paragraphStart);
      if (label) markers.push({ line: i, contentStart: i + 1, level: LABEL_LEVEL, ...label });
    }
    paragraphStart = line.trim() === "";
  }
  return markers;
}

function labelOf(line: string, paragraphStart: boolean): { kind: SectionKind; inline: string } | undefined {
  const bold = BOLD_LABEL.exec(line);
  if (bold?.[1] !== undefined) {
    const name = bold[1].trim();
    const rest = bold[2] ?? "";
    const hasColon = name.endsWith(":") || rest.startsWith(":");
    // A bold phrase inside a sentence is emphasis, not a label.
    if (!hasColon && rest.trim() !== "") return undefined;
    const kind = classifySectionLabel(name.replace(/:$/, ""));
    return kind && { kind, inline: rest.replace(/^:/, "").trim() };
  }
  if (!paragraphStart) return undefined;
  const plain = PLAIN_LABEL.exec(line);
  if (plain?.[1] === undefined || plain[1].split(/\s+/).length > 5) return undefined;
  const kind = classifySectionLabel(plain[1]);
  return kind && { kind, inline: (plain[2] ?? "").trim() };
}

function toBlocks(lines: string[], fenced: Set<number>, marker: Marker, end: number, endsAtBlank: boolean): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  const close = () => {
    if (current.length > 0) blocks.push(current.join(" "));
    current = [];
  };
  if (marker.inline) current.push(marker.inline);
  for (let i = marker.contentStart; i < end; i++) {
    const line = lines[i] ?? "";
    // Code blocks (commands, logs, quoted files) stay in the fenced body the CLI prints; as
    // orientation prose they are noise, and quoted headings in them are not this document's.
    if (fenced.has(i)) continue;
    const text = line.trim();
    if (text === "") {
      if (endsAtBlank && (current.length > 0 || blocks.length > 0)) break;
      close();
      continue;
    }
    const bullet = BULLET.exec(line);
    if (/^ {0,3}#{1,6}\s/.test(line)) {
      // A nested subheading heads what follows; it does not run into the paragraph before it.
      close();
      blocks.push(text.replace(/^#{1,6}\s+/, "").replace(/\s+#+$/, ""));
    } else if (bullet) {
      close();
      current.push((bullet[1] ?? "").trim());
    } else {
      current.push(text);
    }
  }
  close();
  return blocks.filter((block) => block !== "");
}
