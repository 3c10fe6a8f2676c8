import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The real agent sessions the drafter is held to (`../shared/transcripts`: Claude Code, Codex and
 * Gemini CLI sessions committed by their owners as fixtures in MIT-licensed repositories; their
 * sources are in that folder's SOURCES.md). They are not copied here: a clone without the folder
 * skips these tests with the reason, as it skips the kernel reference (reference-facts.ts).
 */

/** Where the corpus is when the environment does not say (this project's CI has it beside the clone). */
export const TRANSCRIPTS_ENV = "HANDOFF_TRANSCRIPTS_DIR";
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export type CorpusLocation = { dir: string; files: string[] } | { reason: string };

/**
 * The corpus, if this machine has it: `$HANDOFF_TRANSCRIPTS_DIR`, else `../shared/transcripts`
 * beside the clone. A folder set in the environment that holds no session is an error, not a
 * skip: whoever set it expects the tests to run.
 */
export function locateTranscripts(env: NodeJS.ProcessEnv = process.env): CorpusLocation {
  const configured = env[TRANSCRIPTS_ENV];
  const dir = resolve(configured || join(repoRoot, "..", "shared", "transcripts"));
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => /\.jsonl?$/.test(name)) : [];
  if (files.length === 0) {
    if (configured) throw new Error(`${TRANSCRIPTS_ENV}=${configured} holds no .jsonl or .json session: point it at the transcripts folder, or unset it`);
    return { reason: `no transcript corpus: set ${TRANSCRIPTS_ENV} to the folder of real sessions, or put it at ../shared/transcripts beside the clone` };
  }
  return { dir, files: files.sort() };
}

/**
 * What each session of the corpus is about, as its SOURCES.md describes it: words of the person's
 * first substantive request (the task a draft must name), and whether the session was compacted
 * (its draft must carry the agent's summary). Only a few words each: the sessions stay where they are.
 */
export const CORPUS_SESSIONS: Record<string, { task: string; compacted: boolean }> = {
  "claude-claude-code-log-1.jsonl": { task: "explain what does _get_enhanced_session_navigation", compacted: false },
  "claude-claude-code-log-2.jsonl": { task: "install as a library with `uv`", compacted: false },
  "claude-claude-code-log-3.jsonl": { task: "It's been a while", compacted: false },
  "claude-claude-code-log-4.jsonl": { task: "@public/tokenizer.css", compacted: false },
  "claude-claude-code-viewer-1.jsonl": { task: "/orchestrator create TODO app by Next.js", compacted: false },
  "claude-sniffly-1.jsonl": { task: "create a jupyter notebook", compacted: false },
  "claude-spotter-0.jsonl": { task: "Work on bead spotter-dov", compacted: true },
  "claude-spotter-1.jsonl": { task: "Work on bead spotter-fum", compacted: true },
  "claude-spotter-2.jsonl": { task: "Implement spotter-gqc", compacted: true },
  "codex-agentcmd-1.jsonl": { task: "Updating a team to assign a lead", compacted: false },
  "codex-agentcmd-2.jsonl": { task: "migrate this app from @supabase/supabase-js to prisma", compacted: false },
  "gemini-agentcmd-1.json": { task: "make me an ai agent in python", compacted: false },
};
