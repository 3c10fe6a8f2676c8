import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { describeFsError } from "../read-file.js";
import { isHandoffError } from "../../shared/errors.js";
import { parseHookEvent, type HookEvent } from "../../shared/hook/event.js";
import { compactContext, sessionStartOutput, startupContext, type StartCandidate } from "../../shared/hook/decide.js";
import { resumeCommand } from "../../shared/ce/resume-command.js";
import { timestampMs } from "../../shared/timestamps.js";
import { configFileFor } from "../config-location.js";
import type { Io } from "../io.js";

/**
 * `handoff hook`: a front end for agents' lifecycle hooks, like cli/ and mcp/. It reads one hook
 * event on stdin and acts on it:
 * - PreCompact (manual or auto) and SessionEnd: an automatic handoff from the transcript.
 * - SessionStart: after a compaction, a pointer to the handoff written just before it; at
 *   startup or resume, the best few handoffs for this repository and branch (titles and ages).
 * It never blocks what the agent is doing: every outcome exits 0, and what went wrong is one line
 * on stderr. Output on stdout is only the JSON the agent reads (SessionStart's context).
 */

export interface HookOutcome {
  /** The JSON the agent reads on stdout, when there is any. */
  output?: unknown;
  /** One line for stderr: what was done, or why nothing was. */
  message?: string;
}

/** The environment variable that turns the automatic handoffs off ("0", "off", "false", "no"). */
export const AUTO_ENV = "HANDOFF_AUTO";

export async function runHook(io: Io, stdinText: string): Promise<HookOutcome> {
  const parsed = parseHookEvent(stdinText);
  if (!parsed.ok) return { message: `handoff hook: ${parsed.reason}` };
  const event = parsed.event;
  try {
    const off = await autoHandoffsOff(io);
    if (off) return { message: `handoff hook: automatic handoffs are off (${off})` };
    switch (event.hook_event_name) {
      case "PreCompact":
      case "SessionEnd":
        return await writeFor(event, io);
      case "SessionStart":
        return await startFor(event, io);
      default:
        return { message: `handoff hook: nothing to do for ${event.hook_event_name}` };
    }
  } catch (error) {
    return { message: `handoff hook: ${describe(error)}; nothing was written` };
  }
}

function describe(error: unknown): string {
  if (isHandoffError(error)) return error.hint ? `${error.message} (${error.hint})` : error.message;
  return describeFsError(error);
}

/** Why automatic handoffs are off, or undefined when they are on: the environment over the config file. */
async function autoHandoffsOff(io: Io): Promise<string | undefined> {
  const value = io.env[AUTO_ENV]?.trim().toLowerCase();
  if (value !== undefined && value !== "") {
    if (["0", "off", "false", "no"].includes(value)) return `${AUTO_ENV}=${io.env[AUTO_ENV]}`;
    return undefined;
  }
  const path = configFileFor({ env: io.env, home: io.env.HOME ?? homedir() });
  // Most users have no config file: the check then costs a stat, not the config reader's zod.
  if (!existsSync(path)) return undefined;
  const { readConfigFile } = await import("../config.js");
  const file = await readConfigFile(path);
  if (file && "version" in file.config && file.config.auto_handoffs === false) return `"auto_handoffs": false in ${path}`;
  return undefined;
}

async function writeFor(event: HookEvent, io: Io): Promise<HookOutcome> {
  if (!event.transcript_path) return { message: `handoff hook: the ${event.hook_event_name} event names no transcript_path; nothing was written` };
  const occasion = event.hook_event_name === "PreCompact" ? `before compaction (${event.trigger ?? "unknown trigger"})` : `at session end (${event.reason ?? "unknown reason"})`;
  const { writeAutoHandoff } = await import("./auto-handoff.js");
  const result = await writeAutoHandoff({ session_id: event.session_id, transcript_path: event.transcript_path, cwd: event.cwd, env: io.env, occasion, now: new Date() });
  if (!result.written) return { message: `handoff hook: no automatic handoff: ${result.reason}` };
  const expired = result.expired > 0 ? `; removed ${result.expired} automatic handoff${result.expired === 1 ? "" : "s"} past their 7 days` : "";
  return { message: `handoff hook: wrote an automatic handoff ${occasion}: ${result.path}${expired}` };
}

async function startFor(event: HookEvent, io: Io): Promise<HookOutcome> {
  if (event.source === "compact") {
    const { lastAutoHandoff } = await import("./session-state.js");
    const state = lastAutoHandoff(io.env, event.session_id);
    if (!state) return {};
    return { output: sessionStartOutput(compactContext(state, resumeCommand(state.path))) };
  }
  if (event.source !== "startup" && event.source !== "resume") return {};
  const candidates = await startCandidates(event.cwd, io);
  const context = startupContext(candidates, Date.now());
  return context === undefined ? {} : { output: sessionStartOutput(context) };
}

/** The best three handoffs of this repository and branch: discovery's shortlist, heads only, nothing selected. */
async function startCandidates(cwd: string, io: Io): Promise<StartCandidate[]> {
  const { discoverShortlist } = await import("../commands/resume.js");
  const found = await discoverShortlist({ keywords: [], limit: 10, maxCandidates: 1000 }, { ...io, cwd });
  const ours = found.candidates.filter((c) => c.reasons.some((r) => r.startsWith("same repository")) && c.reasons.some((r) => r.startsWith("same branch")));
  return ours.slice(0, 3).map((c) => {
    const created = c.created_at === null ? undefined : timestampMs(c.created_at);
    return created === undefined ? { title: c.title, path: c.path } : { title: c.title, path: c.path, created_ms: created };
  });
}
