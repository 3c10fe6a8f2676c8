import { HandoffError } from "../../../shared/errors.js";
import type { SignerCheck } from "../../../shared/crypto/member-key.js";
import type { TeamCard } from "../../../shared/crypto/team-card.js";
import { type CandidateMeta, rankCandidates, relevant } from "../../../shared/discover/rank.js";
import { buildShareUrl } from "../../../shared/api/share-url.js";
import { timestampMs } from "../../../shared/time/timestamps.js";
import { rankingCheckout } from "../../lib/ranking-checkout.js";
import type { RunContext } from "../../lib/run-context.js";
import { type CardState, readTeamInbox, teamDestination } from "../../lib/team-inbox.js";

/**
 * `handoff resume --team`: the team inbox as a shortlist, ranked like local discovery from each
 * entry's opened card. Listing reads no body and spends no view; nothing is selected. Resuming
 * one (`--team ID`) unwraps its share key from the card and reads it as its link would.
 */

export interface TeamCandidate {
  id: string;
  title: string | null;
  summary: string | null;
  keywords: string[];
  created_at: string;
  /** Who published it, only when their signature checks out against this machine's roster. */
  publisher: string | null;
  /** Whether the card is signed by the member it names, and by whom introduced; or why it is unverified. */
  signature: SignerCheck | null;
  repository: string | null;
  branch: string | null;
  expires_at: string;
  max_views: number | null;
  /** The share page without its #key. */
  link: string;
  score: number;
  reasons: string[];
  resume_command: string;
}

export interface TeamDiscoveryResult {
  source: "team";
  server: string;
  team: string;
  filters: { keywords: string[] };
  candidates: TeamCandidate[];
  /** Live entries this machine cannot open (no card, a key it lacks, a refused card): listed, never dropped. */
  unreadable: { id: string; card_state: Exclude<CardState, "readable">; problem: string | null; link: string }[];
  /** Always null: a shortlist selects nothing. */
  selected: null;
  warnings: string[];
}

const resumeCommandFor = (id: string) => `handoff resume --team ${id}`;

/** The server, team token and inbox for a team command run in `ctx`. */
async function inboxFor(ctx: RunContext) {
  const destination = await teamDestination({}, ctx.location);
  return readTeamInbox(ctx.location, destination, ctx.http(), ctx.progress);
}

/** The ranked shortlist of the team inbox for `keywords` (none: the most recent). */
export async function discoverTeam(options: { keywords: string[]; limit: number }, ctx: RunContext): Promise<TeamDiscoveryResult> {
  const [inbox, current] = await Promise.all([inboxFor(ctx), rankingCheckout(ctx.cwd, ctx.env)]);
  const keywords = options.keywords.map((k) => k.trim()).filter((k) => k !== "");
  const readable = inbox.entries.filter((e): e is typeof e & { card: TeamCard } => e.card_state === "readable" && e.card !== null);
  const byPath = new Map(readable.map((e) => [`team:${e.id}`, e]));
  const metas: CandidateMeta[] = readable.map((e) => ({
    path: `team:${e.id}`,
    indexed: true,
    mtimeMs: timestampMs(e.card.created_at) ?? timestampMs(e.created_at) ?? 0,
    fileName: e.id,
    frontmatter: {
      created_at: e.card.created_at,
      ...(e.card.title ? { title: e.card.title } : {}),
      ...(e.card.summary ? { summary: e.card.summary } : {}),
      ...(e.card.keywords ? { keywords: e.card.keywords } : {}),
      ...(e.card.repository ? { repository: e.card.repository } : {}),
      ...(e.card.branch ? { branch: e.card.branch } : {}),
    },
  }));
  const ranked = rankCandidates(metas, { keywords, now: ctx.now().getTime(), current }).filter(relevant).slice(0, options.limit);
  const candidates = ranked.map((r): TeamCandidate => {
    const e = byPath.get(r.path)!;
    return {
      id: e.id,
      title: e.card.title ?? null,
      summary: e.card.summary ?? null,
      keywords: e.card.keywords ?? [],
      created_at: e.card.created_at,
      publisher: e.publisher,
      signature: e.signature,
      repository: e.card.repository ?? null,
      branch: e.card.branch ?? null,
      expires_at: e.expires_at,
      max_views: e.max_views,
      link: e.link,
      score: r.score,
      reasons: r.reasons,
      resume_command: resumeCommandFor(e.id),
    };
  });
  const unreadable = inbox.entries
    .filter((e) => e.card_state !== "readable")
    .map((e) => ({ id: e.id, card_state: e.card_state as Exclude<CardState, "readable">, problem: e.card_problem, link: e.link }));
  return { source: "team", server: inbox.server, team: inbox.team, filters: { keywords }, candidates, unreadable, selected: null, warnings: inbox.warnings };
}

/**
 * The full share link of team entry `id`, from its card: undefined when `id` is not one of the
 * team's live entries (the caller then treats the word as a keyword).
 */
export async function teamShareUrl(id: string, ctx: RunContext): Promise<string | undefined> {
  const inbox = await inboxFor(ctx);
  for (const warning of inbox.warnings) ctx.warn(warning);
  const entry = inbox.entries.find((e) => e.id === id);
  if (entry === undefined) return undefined;
  const key = inbox.shareKeys.get(id);
  if (key === undefined) {
    throw new HandoffError("decrypt_failed", `team entry ${id} has no card this machine can open: ${entry.card_problem ?? "it was published without one"}`, {
      hint: entry.card_state === "unknown_key" ? "ask a teammate for an invite that carries that key ('handoff team invite --keys-only')" : "ask the sender for the full link",
    });
  }
  return buildShareUrl(inbox.server, id, key);
}
