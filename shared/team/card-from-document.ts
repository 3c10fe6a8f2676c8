import { scanFrontmatter } from "../ce/frontmatter-scan.js";
import type { TeamCard } from "../crypto/team-card.js";
import { type CandidateFrontmatter, candidateFrontmatter } from "../discover/rank.js";
import { kernelIndex } from "../discover/kernel-index.js";
import { startsLikeJson } from "../document/sniff.js";

/**
 * The team card of a document about to be published: the same fields discovery ranks by
 * (title, summary, keywords, created time, repository, branch), cut to the card's limits, plus
 * the publisher's label. A field the document lacks is left out; `createdAt` stands in for a
 * document without a usable creation time (the envelope's own rule).
 *
 * @example
 * ```ts
 * cardFromDocument('---\ntitle: "Auth"\nkeywords: ["auth"]\n---\n# Auth', { createdAt: "2026-05-01T10:00:00Z", publisher: "ana" })
 * // { title: "Auth", keywords: ["auth"], created_at: "2026-05-01T10:00:00Z", publisher: "ana" }
 * ```
 */
export function cardFromDocument(text: string, options: { createdAt: string; publisher?: string | undefined; repository?: string | undefined; branch?: string | undefined }): TeamCard {
  const index = indexOf(text.replace(/^\ufeff/, ""));
  const card: TeamCard = { created_at: options.createdAt };
  const title = cut(index.title, 200);
  if (title) card.title = title;
  const summary = cut(index.summary, 1000);
  if (summary) card.summary = summary;
  const keywords = (index.keywords ?? [])
    .map((k) => cut(k, 64))
    .filter((k): k is string => k !== undefined && k !== "")
    .slice(0, 20);
  if (keywords.length > 0) card.keywords = keywords;
  const repository = cut(index.repository ?? options.repository, 300);
  if (repository) card.repository = repository;
  const branch = cut(index.branch ?? options.branch, 255);
  if (branch) card.branch = branch;
  const publisher = cut(options.publisher, 100);
  if (publisher) card.publisher = publisher;
  return card;
}

function indexOf(text: string): CandidateFrontmatter {
  if (startsLikeJson(text)) {
    const kernel = kernelIndex(text, {});
    return kernel.ok ? kernel.frontmatter : {};
  }
  const scan = scanFrontmatter(text);
  return scan.kind === "indexed" ? candidateFrontmatter(scan.data) : {};
}

/** At most `max` UTF-16 units, never splitting a surrogate pair; blank is undefined. */
function cut(value: string | undefined, max: number): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (trimmed.length <= max) return trimmed;
  const end = /[\ud800-\udbff]/.test(trimmed[max - 2] ?? "") ? max - 2 : max - 1;
  return `${trimmed.slice(0, end)}…`;
}
