import { createHash } from "node:crypto";
import { HandoffError } from "../../shared/errors.js";
import { AUTO_EXPIRY_MS, AUTO_KEYWORD, type AutoState, decideAutoHandoff } from "../../shared/hook/decide.js";
import { draftBody } from "../../shared/transcript/render.js";
import { timestampMs } from "../../shared/time/timestamps.js";
import { captureGit } from "../lib/git.js";
import { deleteHandoffs, listStore } from "../lib/store-index.js";
import { createHandoff } from "../ops/create/create.js";
import { draftFromTranscript } from "../ops/create/read-transcript.js";
import { transcriptRoots } from "../ops/create/transcript.js";
import type { Env } from "../platform/env.js";
import { readSessionState, writeSessionState } from "./session-state.js";

export interface AutoHandoffInput {
  session_id: string;
  transcript_path: string;
  /** The session's folder, as the agent reported it. */
  cwd: string;
  env: Env;
  /** Said in the handoff: "before compaction (auto)", "at session end (logout)". */
  occasion: string;
  now: Date;
}

export type AutoHandoffResult = { written: true; path: string; title: string; resume_command: string; expired: number } | { written: false; reason: string };

/**
 * Writes an automatic handoff of a session from its transcript into the managed store, keyword
 * `auto`, never published: at most one per session every few minutes, and none when the draft
 * is the same as the last one. Old automatic handoffs expire here (AUTO_EXPIRY_MS), once per
 * session, at its first automatic handoff: the store is scanned once, not at every compaction.
 */
export async function writeAutoHandoff(input: AutoHandoffInput): Promise<AutoHandoffResult> {
  const git = captureGit(input.cwd, input.env);
  git.catch(() => undefined);
  const draft = draftFromTranscript(input.transcript_path);
  const captured = await git;
  const body = draftBody(draft, { roots: transcriptRoots(captured, draft.cwd, input.cwd), transcriptPath: input.transcript_path, occasion: input.occasion });
  // The line counts change with every line the agent appends: they are not what "changed" means.
  const digest = createHash("sha256")
    .update(body.replace(/^- Read \d+ transcript lines:.*$/m, ""))
    .digest("hex");
  const last = readSessionState(input.env, input.session_id);
  const decision = decideAutoHandoff(last, { now_ms: input.now.getTime(), digest });
  if (!decision.write) return { written: false, reason: decision.reason };

  let created: Awaited<ReturnType<typeof createHandoff>>;
  try {
    created = await createHandoff({ body, keywords: [AUTO_KEYWORD], cwd: input.cwd, env: input.env }, { now: () => input.now, captureGit: async () => captured });
  } catch (error) {
    if (error instanceof HandoffError && error.reason === "insufficient") return { written: false, reason: `the transcript does not say enough to resume from yet (${error.message})` };
    throw error;
  }
  const { path, metadata, resume_command } = created.result;
  const state: AutoState = { session_id: input.session_id, path, written_at_ms: input.now.getTime(), digest, title: metadata.title };
  const request = latestRequestIn(created.document);
  if (request !== undefined) state.request = request;
  writeSessionState(input.env, state);
  return { written: true, path, title: metadata.title, resume_command, expired: last === undefined ? expireAutoHandoffs(input.env, input.now.getTime() - AUTO_EXPIRY_MS, path) : 0 };
}

/** The first quoted line under the objective: the user's latest request as the handoff has it (redacted). */
function latestRequestIn(document: string): string | undefined {
  const section = document.indexOf("\n## Objective and current intent\n");
  if (section < 0) return undefined;
  const quoted = /^> (.+)$/m.exec(document.slice(section));
  if (!quoted?.[1]) return undefined;
  const line = quoted[1].trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** The automatic handoffs in the managed store created before `cutoffMs`. */
export function autoHandoffsBefore(env: Env, cutoffMs: number) {
  const { entries, warnings } = listStore(env);
  const auto = entries.filter((e) => e.keywords.includes(AUTO_KEYWORD));
  return { old: auto.filter((e) => (timestampMs(e.created_at) ?? Number.POSITIVE_INFINITY) < cutoffMs), total: entries.length, warnings };
}

function expireAutoHandoffs(env: Env, cutoffMs: number, keep: string): number {
  const { old } = autoHandoffsBefore(env, cutoffMs);
  const expired = old.filter((e) => e.path !== keep);
  deleteHandoffs(expired);
  return expired.length;
}
