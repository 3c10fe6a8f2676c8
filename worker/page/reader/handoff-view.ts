// What the reader shows for an opened handoff, as values: the header card's fields, the Markdown to
// render, and the notice a kernel manifest carries. No DOM here. The text is untrusted and was not
// validated on this side, so every field is taken only when it has the expected type.
import { scanFrontmatter } from "../../../shared/ce/frontmatter-scan.js";
import type { KernelHandoff } from "../../../shared/kernel/schema.js";
import { renderKernelMarkdown } from "../../../shared/kernel/render.js";
import { KERNEL_HANDOFF_SCHEMA_ID } from "../../../shared/kernel/sections.js";
import { parseStrictJson } from "../../../shared/kernel/strict-json.js";
import { markdownHeadings } from "../../../shared/text/markdown.js";

export interface HeaderCard {
  title?: string;
  summary?: string;
  repository?: string;
  branch?: string;
  /** The full commit id; the page shows its first 12 characters. */
  head?: string;
  /** As written (ISO 8601); the page shows it in the reader's zone. */
  created?: string;
  focus?: string;
  keywords: string[];
}

export interface HandoffView {
  kind: "markdown" | "kernel";
  card: HeaderCard;
  /** Rendered below the card. */
  markdown: string;
  /** A frontmatter that is not in the flat form the CLI writes: shown as written, not interpreted. */
  frontmatterAsWritten?: string;
  /** For a kernel manifest: the first line of its rendering ("RENDERED FROM … — NOT AUTHORITATIVE") and the line after it. */
  notice?: { title: string; text: string };
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : []);
const field = (value: unknown, key: string): unknown => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined);

function cardFromFrontmatter(data: Record<string, unknown>): HeaderCard {
  return {
    title: str(data.title),
    summary: str(data.summary),
    repository: str(data.repository),
    branch: str(data.branch),
    head: str(data.head),
    created: str(data.created_at),
    focus: str(data.resume_focus),
    keywords: strings(data.keywords),
  };
}

function markdownView(text: string): HandoffView {
  const scan = scanFrontmatter(text);
  if (scan.kind === "unindexed") return { kind: "markdown", card: { keywords: [] }, markdown: text };
  // bytesRead counts UTF-8 bytes; the body starts after that many bytes of the text.
  const consumed = new TextDecoder().decode(new TextEncoder().encode(text).subarray(0, scan.bytesRead)).length;
  const markdown = text.slice(consumed).replace(/^\r?\n/, "");
  if (scan.kind === "needs_yaml") return { kind: "markdown", card: { keywords: [] }, markdown, frontmatterAsWritten: scan.text };
  const card = cardFromFrontmatter(scan.data);
  return { kind: "markdown", card, markdown: withoutTitleHeading(markdown, card.title) };
}

/** Heading text as a title compares: inline marks and backslashes gone, spaces collapsed, any case. */
const comparable = (text: string) =>
  text
    .replace(/[\\*_`~]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();

/**
 * The body without its leading heading when that heading is the card's title (`handoff create`
 * takes the title from it, and drafts from a transcript open with it), so the page's h1 is the
 * title's one appearance. A title cut short with "…" matches the heading it was cut from.
 */
function withoutTitleHeading(markdown: string, title: string | undefined): string {
  if (title === undefined) return markdown;
  const lines = markdown.split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== "");
  const heading = markdownHeadings(lines).find((h) => h.line === first);
  if (heading === undefined) return markdown;
  const want = comparable(title);
  const have = comparable(heading.text);
  const same = want === have || (want.endsWith("…") && want.length > 1 && have.startsWith(want.slice(0, -1).trimEnd()));
  if (!same) return markdown;
  let next = heading.endLine + 1;
  while (next < lines.length && lines[next]?.trim() === "") next++;
  return lines.slice(next).join("\n");
}

function kernelView(manifest: Record<string, unknown>, fileName: string): HandoffView | undefined {
  let markdown: string;
  try {
    // Rendering assumes the schema's shape; the CLI validates before publishing, but the bytes
    // are the sender's. A manifest of another shape fails here and is shown as written.
    markdown = renderKernelMarkdown(manifest as unknown as KernelHandoff, fileName);
  } catch {
    return undefined;
  }
  const [title = "", , text = "", ...rest] = withoutResumeSection(markdown).split("\n");
  const identity = field(manifest, "identity");
  const provenance = field(manifest, "provenance");
  return {
    kind: "kernel",
    card: {
      title: str(field(identity, "name")),
      summary: str(field(field(manifest, "objective"), "goal")),
      branch: str(field(provenance, "branch")),
      head: str(field(provenance, "commit")),
      created: str(field(identity, "created")),
      keywords: [],
    },
    notice: { title: title.replace(/^#\s*/, ""), text },
    markdown: rest.join("\n"),
  };
}

/**
 * The rendering without its "Resume" section. The manifest's resume prompt is for the sender's
 * agent in the sender's checkout (a path there, or a slash command); on a share page it would be a
 * second resume command beside the page's own, which is the one that works for this link. The
 * prompt is still in View source and in the downloaded JSON, and resuming through the page's
 * command hands it to the next agent.
 */
function withoutResumeSection(markdown: string): string {
  const lines = markdown.split("\n");
  const headings = markdownHeadings(lines);
  const at = headings.findIndex((h) => h.level === 2 && h.text === "Resume");
  const section = headings[at];
  if (section === undefined) return markdown;
  const end = headings.slice(at + 1).find((h) => h.level <= 2)?.line ?? lines.length;
  return [...lines.slice(0, section.line), ...lines.slice(end)].join("\n");
}

/**
 * How to show the opened `text` (its original file name `fileName`): a kernel.handoff/v1 manifest
 * as its sections, anything else as Markdown with an optional ce-handoff frontmatter.
 *
 * @example
 * ```ts
 * handoffView('---\ntitle: "Fix login"\n---\n# Plan', "fix.md").card.title // "Fix login"
 * ```
 */
export function handoffView(text: string, fileName: string): HandoffView {
  if (text.trimStart().startsWith("{")) {
    const parsed = parseStrictJson(text);
    if (parsed.ok && field(parsed.value, "schema") === KERNEL_HANDOFF_SCHEMA_ID) {
      const view = kernelView(parsed.value as Record<string, unknown>, fileName);
      if (view !== undefined) return view;
    }
    // JSON that is not a manifest we can lay out: show it as code, as written.
    return { kind: "markdown", card: { keywords: [] }, markdown: fence(text, "json") };
  }
  return markdownView(text);
}

function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const marks = "`".repeat(longest + 1);
  return `${marks}${lang}\n${text}\n${marks}\n`;
}
