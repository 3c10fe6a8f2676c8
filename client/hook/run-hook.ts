import { existsSync } from "node:fs";
import { resumeCommand } from "../../shared/ce/resume-command.js";
import { isHandoffError } from "../../shared/errors.js";
import { compactContext, sessionStartOutput, type StartCandidate, startupContext } from "../../shared/hook/decide.js";
import { type HookEvent, parseHookEvent } from "../../shared/hook/event.js";
import { timestampMs } from "../../shared/time/timestamps.js";
import { configFileFor } from "../lib/config-location.js";
import { createRunContext, type RunContext } from "../lib/run-context.js";
import { describeFsError } from "../platform/fs.js";

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

export async function runHook(ctx: RunContext, stdinText: string): Promise<HookOutcome> {
  const parsed = parseHookEvent(stdinText);
  if (!parsed.ok) return { message: `handoff hook: ${parsed.reason}` };
  const event = parsed.event;
  try {
    const off = await autoHandoffsOff(ctx);
    if (off) return { message: `handoff hook: automatic handoffs are off (${off})` };
    switch (event.hook_event_name) {
      case "PreCompact":
      case "SessionEnd":
        return await writeFor(event, ctx);
      case "SessionStart":
        return await startFor(event, ctx);
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
async function autoHandoffsOff(ctx: RunContext): Promise<string | undefined> {
  const value = ctx.env[AUTO_ENV]?.trim().toLowerCase();
  if (value !== undefined && value !== "") {
    if (["0", "off", "false", "no"].includes(value)) return `${AUTO_ENV}=${ctx.env[AUTO_ENV]}`;
    return undefined;
  }
  const path = configFileFor(ctx.location);
  // Most users have no config file: the check then costs a stat, not the config reader's zod.
  if (!existsSync(path)) return undefined;
  const { readConfigFile } = await import("../lib/config.js");
  const file = await readConfigFile(path);
  if (file && "version" in file.config && file.config.auto_handoffs === false) return `"auto_handoffs": false in ${path}`;
  return undefined;
}

async function writeFor(event: HookEvent, ctx: RunContext): Promise<HookOutcome> {
  if (!event.transcript_path) return { message: `handoff hook: the ${event.hook_event_name} event names no transcript_path; nothing was written` };
  const occasion = event.hook_event_name === "PreCompact" ? `before compaction (${event.trigger ?? "unknown trigger"})` : `at session end (${event.reason ?? "unknown reason"})`;
  const { writeAutoHandoff } = await import("./auto-handoff.js");
  const result = await writeAutoHandoff({ session_id: event.session_id, transcript_path: event.transcript_path, cwd: event.cwd, env: ctx.env, occasion, now: ctx.now() });
  if (!result.written) return { message: `handoff hook: no automatic handoff: ${result.reason}` };
  const expired = result.expired > 0 ? `; removed ${result.expired} automatic handoff${result.expired === 1 ? "" : "s"} past their 7 days` : "";
  return { message: `handoff hook: wrote an automatic handoff ${occasion}: ${result.path}${expired}` };
}

async function startFor(event: HookEvent, ctx: RunContext): Promise<HookOutcome> {
  if (event.source === "compact") {
    const { lastAutoHandoff } = await import("./session-state.js");
    const state = lastAutoHandoff(ctx.env, event.session_id);
    if (!state) return {};
    return { output: sessionStartOutput(compactContext(state, resumeCommand(state.path))) };
  }
  if (event.source !== "startup" && event.source !== "resume") return {};
  const candidates = await startCandidates(event.cwd, ctx);
  const context = startupContext(candidates, ctx.now().getTime());
  return context === undefined ? {} : { output: sessionStartOutput(context) };
}

/** The best three handoffs of this repository and branch: discovery's shortlist, heads only, nothing selected. */
async function startCandidates(cwd: string, ctx: RunContext): Promise<StartCandidate[]> {
  const { discoverShortlist } = await import("../ops/discover/shortlist.js");
  // Discovery runs in the session's folder, as the agent reported it, not where the hook was started.
  const here = createRunContext({ cwd, env: ctx.env, home: ctx.home, uid: ctx.uid, now: () => ctx.now() });
  const found = await discoverShortlist({ keywords: [], limit: 10, maxCandidates: 1000 }, here);
  for (const warning of here.takeWarnings()) ctx.warn(warning);
  const ours = found.candidates.filter((c) => c.reasons.some((r) => r.startsWith("same repository")) && c.reasons.some((r) => r.startsWith("same branch")));
  return ours.slice(0, 3).map((c) => {
    const created = c.created_at === null ? undefined : timestampMs(c.created_at);
    return created === undefined ? { title: c.title, path: c.path } : { title: c.title, path: c.path, created_ms: created };
  });
}
