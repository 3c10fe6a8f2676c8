import { classifySectionLabel } from "./classify.js";
import { readLabelLine } from "./labels.js";
import { countContentWords, SUBSTANCE_COUNTED } from "./substance.js";
import { fencedLines, markdownHeadings, splitLines } from "../text/markdown.js";
import type { SectionKind } from "./types.js";

/** One recognised section: its kind and its content as blocks (list items or paragraphs). */
export interface FoundSection {
  kind: SectionKind;
  blocks: string[];
}

/** What a body says by its layout, and what it says outside every recognised section. */
export interface SectionReading {
  /** Recognised sections in document order. */
  sections: FoundSection[];
  /** The body's first line when it is a heading that names no section ("# Migrate the billing jobs"). */
  title?: string;
  /** Checklist items outside every section, and the heading or line just above the first of them. */
  checklist: { title?: string; done: string[]; open: string[] };
  /** Paragraphs and list items outside every section (fenced code, headings and checklists aside). */
  prose: string[];
  /** Content words in the body outside the labels and headings that name sections, counted up to SUBSTANCE_COUNTED. */
  substance: number;
}

const LABEL_LEVEL = 7;
const BULLET = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[([ xX])\][ \t]+)?(.*)$/;
const FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,})/;
const INDENT = /^[ \t]*/;

interface Open {
  section: FoundSection;
  /** 1-6 for headings; labels sit below every heading level. */
  level: number;
  /** A label with text on its own line runs to the end of its paragraph. */
  endsAtBlank: boolean;
}

/**
 * Sections found by heading or label meaning, in document order, and what stands outside them:
 * headings (any level, ATX or setext) and labels (readLabelLine) on any line. A section runs to the next heading of the same or higher level, or to the next
 * recognised section at any level; a label with text on its own line runs to the end of its
 * paragraph; a label on a list item ("- Done: x") holds that item only, and the section around
 * it goes on after it.
 *
 * @example
 * ```ts
 * readSections("## Goal\nShip it\n\n**Next steps:**\n- test").sections
 * // [{ kind: "objective", blocks: ["Ship it"] }, { kind: "unfinished", blocks: ["test"] }]
 * readSections("# Billing jobs\n- [x] invoices\n- [ ] reminders").checklist
 * // { title: "Billing jobs", done: ["invoices"], open: ["reminders"] }
 * ```
 */
export function readSections(body: string): SectionReading {
  const lines = splitLines(body);
  const fenced = fencedLines(lines);
  const headingAt = new Map(markdownHeadings(lines, fenced).map((h) => [h.line, h]));
  const reader = new Reader();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (fenced.has(i)) {
      // Code blocks (commands, logs, quoted files) stay in the fenced body the CLI prints; as
      // orientation prose they are noise, and quoted headings in them are not this document's.
      // What they hold still counts as something said.
      reader.endParagraph();
      if (!FENCE_LINE.test(line)) reader.count(line);
      continue;
    }
    const heading = headingAt.get(i);
    if (heading) {
      reader.heading(heading.text, heading.level);
      i = heading.endLine;
    } else if (line.trim() === "") {
      reader.blank();
    } else {
      const labelled = readLabelLine(line);
      if (labelled) reader.labels(labelled.labels, labelled.item, nextIsDeeper(lines, i, labelled.item));
      else reader.line(line);
    }
  }
  return reader.finish();
}

/** Whether the line after `i` is indented past a list marker at `column` (the item's own content). */
function nextIsDeeper(lines: string[], i: number, column: number | undefined): boolean {
  if (column === undefined) return false;
  const next = lines[i + 1] ?? "";
  return next.trim() !== "" && (INDENT.exec(next)?.[0].length ?? 0) > column;
}

/** Reads a body line by line: which section each line belongs to, and what lies outside them all. */
class Reader {
  private readonly sections: FoundSection[] = [];
  private readonly prose: string[] = [];
  private readonly checklist: SectionReading["checklist"] = { done: [], open: [] };
  private title?: string;
  private substance = 0;
  private seenText = false;
  /** The heading or label section the next line belongs to. */
  private open?: Open;
  /** A labelled list item ("- Done: x") and its marker's column: it holds the lines of that item. */
  private item?: { section: FoundSection; column: number };
  private afterBlank = false;
  /** The paragraph being read and where it goes (a section, or the prose outside them). */
  private paragraph?: { into: FoundSection | undefined; text: string[] };
  /** The last heading or one-line paragraph outside every section: a checklist's title. */
  private lastOutside?: string;

  count(text: string): void {
    if (this.substance < SUBSTANCE_COUNTED) this.substance += countContentWords(text, SUBSTANCE_COUNTED - this.substance);
  }

  heading(text: string, level: number): void {
    this.endParagraph();
    this.item = undefined;
    this.afterBlank = false;
    const kind = classifySectionLabel(text);
    const first = !this.seenText;
    this.seenText = true;
    if (kind) {
      this.open = { section: this.start(kind), level, endsAtBlank: false };
      return;
    }
    this.count(text);
    if (first && text !== "") this.title = text;
    if (this.open && this.open.level < level) {
      // A nested subheading heads what follows; it does not run into the paragraph before it.
      this.open.section.blocks.push(text);
    } else {
      this.open = undefined;
      if (text !== "") this.lastOutside = text;
    }
  }

  blank(): void {
    this.endParagraph();
    this.afterBlank = true;
    if (this.open?.endsAtBlank) this.open = undefined;
  }

  labels(labels: { kind: SectionKind; inline: string }[], column: number | undefined, itemGoesOn: boolean): void {
    this.endParagraph();
    this.seenText = true;
    this.afterBlank = false;
    this.item = undefined;
    let last: FoundSection | undefined;
    for (const label of labels) {
      last = this.start(label.kind);
      this.count(label.inline);
      if (label !== labels[labels.length - 1]) {
        if (label.inline !== "") last.blocks.push(label.inline);
        continue;
      }
      if (label.inline !== "") this.paragraph = { into: last, text: [label.inline] };
    }
    if (!last) return;
    const inline = labels[labels.length - 1]?.inline !== "";
    // "- Done: x" holds its item; a bare "- Next:" over items of its own at the same depth heads them.
    if (column !== undefined && (inline || itemGoesOn)) this.item = { section: last, column };
    else this.open = { section: last, level: LABEL_LEVEL, endsAtBlank: inline };
  }

  line(line: string): void {
    this.seenText = true;
    const bullet = BULLET.exec(line);
    const indent = INDENT.exec(line)?.[0].length ?? 0;
    if (this.item && (bullet ? indent <= this.item.column : this.afterBlank && indent <= this.item.column)) this.endItem();
    this.afterBlank = false;
    const into = this.item?.section ?? this.open?.section;
    const text = (bullet ? (bullet[3] ?? "") : line).trim();
    this.count(text);
    if (into === undefined && bullet?.[2] !== undefined) {
      // A checklist outside every section: done items are progress, open ones unfinished work.
      this.endParagraph();
      if (this.checklist.done.length + this.checklist.open.length === 0 && this.lastOutside) this.checklist.title = this.lastOutside;
      (bullet[2] === " " ? this.checklist.open : this.checklist.done).push(text);
      return;
    }
    if (bullet || this.paragraph?.into !== into) this.endParagraph();
    if (this.paragraph) this.paragraph.text.push(text);
    else this.paragraph = { into, text: [text] };
  }

  endParagraph(): void {
    const paragraph = this.paragraph;
    this.paragraph = undefined;
    if (!paragraph || paragraph.text.length === 0) return;
    const text = paragraph.text.join(" ");
    if (paragraph.into) {
      paragraph.into.blocks.push(text);
    } else {
      this.prose.push(text);
      if (paragraph.text.length === 1) this.lastOutside = text;
    }
  }

  finish(): SectionReading {
    this.endParagraph();
    // A label with nothing after it ("Goal:" over a blank) says nothing: it is no section.
    const sections = this.sections.filter((section) => section.blocks.length > 0);
    const reading: SectionReading = { sections, checklist: this.checklist, prose: this.prose, substance: this.substance };
    if (this.title !== undefined) reading.title = this.title;
    return reading;
  }

  private start(kind: SectionKind): FoundSection {
    const section: FoundSection = { kind, blocks: [] };
    this.sections.push(section);
    return section;
  }

  /** The labelled item is over: the section around it goes on, after the item in document order. */
  private endItem(): void {
    this.endParagraph();
    this.item = undefined;
    if (this.open) this.open = { ...this.open, section: this.start(this.open.section.kind) };
  }
}
