import { createHash } from "node:crypto";
import { renameSync, unlinkSync } from "node:fs";
import { dirname } from "node:path";
import { resumeCommand } from "../../shared/ce/resume-command.js";
import { HandoffError } from "../../shared/errors.js";
import { AUTO_EXPIRY_MS, AUTO_KEYWORD, type AutoEvent, type AutoState, decideAutoHandoff } from "../../shared/hook/decide.js";
import { orientationOf } from "../../shared/hook/orientation.js";
import { checkoutBody } from "../../shared/hook/checkout-body.js";
import { refuseEmptyDraft, type TranscriptDraft } from "../../shared/transcript/drafter.js";
import { draftBody } from "../../shared/transcript/render.js";
import { captureGit } from "../lib/git.js";
import { createHandoff } from "../ops/create/create.js";
import { draftFromTranscript, type ReadTranscriptOptions } from "../ops/create/read-transcript.js";
import { transcriptRoots } from "../ops/create/transcript.js";
import type { Env } from "../platform/env.js";
import { checkoutFacts } from "./checkout.js";
import { documentSha256, expireAutoHandoffs, isHookWritten, lockSession, readSessionState, writeSessionState } from "./session-state.js";

export interface AutoHandoffInput {
  session_id: string;
  /** The session's transcript; without one (or unreadable) only `checkout` can write anything. */
  transcript_path?: string;
  /** The session's folder, as the agent reported it. */
  cwd: string;
  env: Env;
  event: AutoEvent;
  /** Said in the handoff: "before compaction (auto)", "at session end (logout)". */
  occasion: string;
  now: Date;
  /** How to read the transcript: SessionEnd reads its head and end only (its time budget). */
  read?: ReadTranscriptOptions;
  /**
   * When the transcript cannot be read (none named, unreadable, or nothing in it), write from the
   * checkout instead (shared/hook/checkout-body.ts): for agents whose transcript is undocumented.
   * `why` says what was wrong with the transcript when it was never opened.
   */
  checkout?: { agent?: string; why?: string };
}

export type AutoHandoffResult = { written: true; path: string; title: string; resume_command: string; replaced: boolean; expired: number } | { written: false; reason: string };

/**
 * Writes a session's automatic handoff from its transcript into the managed store, keyword
 * `auto`, never published, or updates it: one handoff per session, replaced in place (same path)
 * when the draft changed, and only while the file there is still the one the hook wrote. Before a
 * compaction at most one every few minutes (decide.ts). Automatic handoffs the hook wrote more
 * than AUTO_EXPIRY_MS ago are removed at a session's first write: the store is scanned once per
 * session, not at every compaction.
 */
export async function writeAutoHandoff(input: AutoHandoffInput): Promise<AutoHandoffResult> {
  const git = captureGit(input.cwd, input.env);
  git.catch(() => undefined);
  const drafted = draftOrWhy(input);
  const captured = await git;
  let draft: TranscriptDraft | undefined;
  let body: string;
  if (typeof drafted !== "string") {
    draft = drafted;
    body = draftBody(draft, { roots: transcriptRoots(captured, draft.cwd, input.cwd), ...(input.transcript_path ? { transcriptPath: input.transcript_path } : {}), occasion: input.occasion });
  } else {
    const fromCheckout = input.checkout && captured ? checkoutBody(await checkoutFacts(captured, input.env), { ...input.checkout, occasion: input.occasion, why: drafted }) : undefined;
    if (fromCheckout === undefined)
      return { written: false, reason: input.checkout ? `${drafted}, and ${captured ? "the checkout holds no uncommitted work" : "the folder is not a git checkout"} to write from instead` : drafted };
    body = fromCheckout;
  }
  // The line counts, the window and when it was drafted change with every line the agent appends
  // or every event: they are not what "changed" means.
  const digest = createHash("sha256")
    .update(
      body
        .replace(/^- Read \d+ transcript lines:.*$/m, "")
        .replace(/^- Read [\d.]+ MB of the transcript's.*$/m, "")
        .replace(/^Drafted [^\n]*? session's (?:transcript|checkout)/m, ""),
    )
    .digest("hex");
  const release = lockSession(input.env, input.session_id, input.now.getTime());
  if (release === undefined) return { written: false, reason: "another handoff hook is writing this session's automatic handoff right now" };
  try {
    return await writeLocked(input, { body, digest, draft, captured });
  } finally {
    release();
  }
}

/** The write itself, under the session's lock: decide, create, replace the previous one, record. */
async function writeLocked(
  input: AutoHandoffInput,
  drafted: { body: string; digest: string; draft: TranscriptDraft | undefined; captured: Awaited<ReturnType<typeof captureGit>> },
): Promise<AutoHandoffResult> {
  const { body, digest, draft, captured } = drafted;
  const last = readSessionState(input.env, input.session_id);
  const decision = decideAutoHandoff(last, { now_ms: input.now.getTime(), digest, event: input.event });
  if (!decision.write) return { written: false, reason: decision.reason };

  let created: Awaited<ReturnType<typeof createHandoff>>;
  try {
    created = await createHandoff({ body, keywords: [AUTO_KEYWORD], cwd: input.cwd, env: input.env }, { now: () => input.now, captureGit: async () => captured });
  } catch (error) {
    if (error instanceof HandoffError && error.reason === "insufficient")
      return { written: false, reason: `the ${draft ? "transcript" : "checkout"} does not say enough to resume from yet (${error.message})` };
    throw error;
  }
  const { metadata } = created.result;
  const path = replacePrevious(input.env, last, created.result.path);
  const state: AutoState = {
    session_id: input.session_id,
    path,
    written_at_ms: input.now.getTime(),
    digest,
    document_sha256: documentSha256(created.document),
    title: metadata.title,
    ...(draft ? { orientation: orientationOf(draft) } : {}),
  };
  writeSessionState(input.env, state);
  const expired = last === undefined ? expireAutoHandoffs(input.env, input.now.getTime() - AUTO_EXPIRY_MS, input.session_id) : 0;
  return { written: true, path, title: metadata.title, resume_command: resumeCommand(path), replaced: last !== undefined && path === last.path, expired };
}

/**
 * The transcript's draft, or why there is none to write from (the caller's `checkout` may then
 * write from the checkout). Only what is wrong with the transcript is caught: a redaction that
 * fails still stops the write.
 */
function draftOrWhy(input: AutoHandoffInput): TranscriptDraft | string {
  if (!input.transcript_path) return input.checkout?.why ?? `the ${input.event} event names no transcript_path`;
  try {
    const draft = draftFromTranscript(input.transcript_path, input.read);
    refuseEmptyDraft(draft);
    return draft;
  } catch (error) {
    if (error instanceof HandoffError && error.reason !== "redaction_failed" && (input.checkout || error.reason === "insufficient")) return error.message;
    throw error;
  }
}

/**
 * The session's previous automatic handoff gives way to the new one: the new file takes its name
 * when both are in the same folder (the path a SessionStart pointer or a person copied stays
 * good), else the old one is removed. Only a file that is still exactly what the hook wrote; any
 * other stays where it is and the new handoff keeps its own name.
 */
function replacePrevious(env: Env, last: AutoState | undefined, written: string): string {
  if (last === undefined || last.path === written || !isHookWritten(env, last)) return written;
  if (dirname(last.path) === dirname(written)) {
    renameSync(written, last.path);
    return last.path;
  }
  unlinkSync(last.path);
  return written;
}
