import { existsSync } from "node:fs";
import { resumeCommand } from "../../shared/ce/resume-command.js";
import { isHandoffError } from "../../shared/errors.js";
import { agentOfSummary, sessionStartOutput, type StartCandidate, startupContext } from "../../shared/hook/decide.js";
import { compactContext } from "../../shared/hook/orientation.js";
import type { AutoEvent } from "../../shared/hook/decide.js";
import { type HookDialect, type HookEvent, parseHookEvent } from "../../shared/hook/event.js";
import { timestampMs } from "../../shared/time/timestamps.js";
import { configFileFor } from "../lib/config-location.js";
import { createRunContext, type RunContext } from "../lib/run-context.js";
import { describeFsError } from "../platform/fs.js";

/**
 * `handoff hook`: a front end for agents' lifecycle hooks, like cli/ and mcp/. It reads one hook
 * event on stdin, in any agent's dialect (shared/hook/event.ts), and acts on it by kind:
 * - before and after a compaction, and at the session's end: the session's automatic handoff,
 *   drafted from the transcript, written or updated (PostCompact with the agent's
 *   `compact_summary`; the session's end from the transcript's head and end, within its time
 *   budget; for Cursor and VS Code, whose transcripts are undocumented, from the checkout when
 *   the transcript cannot be read).
 * - the session's start: after a compaction, a short orientation quoted from that handoff; else
 *   the best few handoffs for this repository and branch (titles, ages, the agent each came from),
 *   in the shape the asking agent reads.
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

/**
 * What SessionEnd reads of a transcript larger than both together: its first and its last bytes.
 * Claude Code gives all SessionEnd hooks 1.5 s together (a plugin's timeout does not raise it),
 * Codex at most 3 s; reading a bounded part keeps the time independent of the transcript's size
 * (docs/agents.md). PreCompact and PostCompact, with no such budget, read the whole file.
 */
export const SESSION_END_WINDOW = { headBytes: 1 << 20, tailBytes: 7 << 20 } as const;

export async function runHook(ctx: RunContext, stdinText: string): Promise<HookOutcome> {
  const parsed = parseHookEvent(stdinText);
  if (!parsed.ok) return { message: `handoff hook: ${parsed.reason}` };
  const event = parsed.event;
  // VS Code hands every registered hook every event (it ignores matchers): one this tool does
  // not act on ends here, at once and silently, before any file is read.
  if (event.kind === "other") return {};
  try {
    const off = await autoHandoffsOff(ctx);
    if (off) return { message: `handoff hook: automatic handoffs are off (${off})` };
    // ...and runs each registration of the same event, with the same stamped input: once is enough.
    if (event.dialect === "vscode" && event.timestamp !== undefined) {
      const { claimDelivery } = await import("./session-state.js");
      if (!claimDelivery(ctx.env, `${event.session_id}\n${event.hook_event_name}\n${event.timestamp}`, ctx.now().getTime())) return {};
    }
    switch (event.kind) {
      case "pre-compact":
        return await writeFor(event, "PreCompact", ctx);
      case "post-compact":
        return await writeFor(event, "PostCompact", ctx);
      case "session-end":
        return await writeFor(event, "SessionEnd", ctx);
      case "session-start":
        return await startFor(event, ctx);
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

/** The agents whose transcripts are undocumented: without a readable one, the checkout is written instead. */
const CHECKOUT_AGENTS: Partial<Record<HookDialect, string>> = { cursor: "Cursor", vscode: "VS Code" };

async function writeFor(event: HookEvent, name: AutoEvent, ctx: RunContext): Promise<HookOutcome> {
  const agent = CHECKOUT_AGENTS[event.dialect];
  let transcript = event.transcript_path ?? undefined;
  if (transcript === undefined && event.dialect === "cursor") {
    const { cursorTranscript } = await import("./checkout.js");
    transcript = cursorTranscript(ctx.home, event.cwd, event.session_id);
  }
  if (transcript === undefined && agent === undefined) return { message: `handoff hook: the ${event.hook_event_name} event names no transcript_path; nothing was written` };
  const occasion =
    name === "PreCompact"
      ? `before compaction (${event.trigger ?? "unknown trigger"})`
      : name === "PostCompact"
        ? `after compaction (${event.trigger ?? "unknown trigger"})`
        : `at session end (${event.reason ?? (event.dialect === "vscode" ? "the agent stopped" : "unknown reason")})`;
  const read = name === "SessionEnd" ? { window: SESSION_END_WINDOW } : name === "PostCompact" && event.compact_summary ? { summary: event.compact_summary } : {};
  const { writeAutoHandoff } = await import("./auto-handoff.js");
  const result = await writeAutoHandoff({
    session_id: event.session_id,
    ...(transcript === undefined ? {} : { transcript_path: transcript }),
    cwd: event.cwd,
    env: ctx.env,
    event: name,
    occasion,
    now: ctx.now(),
    read,
    ...(agent === undefined ? {} : { checkout: { agent, ...(transcript === undefined ? { why: `${agent} named no transcript for this session` } : {}) } }),
  });
  if (!result.written) return { message: `handoff hook: no automatic handoff: ${result.reason}` };
  const expired = result.expired > 0 ? `; removed ${result.expired} automatic handoff${result.expired === 1 ? "" : "s"} it wrote more than 7 days ago` : "";
  return { message: `handoff hook: ${result.replaced ? "updated the" : "wrote an"} automatic handoff ${occasion}: ${result.path}${expired}` };
}

async function startFor(event: HookEvent, ctx: RunContext): Promise<HookOutcome> {
  if (event.source === "compact") {
    const { lastAutoHandoff } = await import("./session-state.js");
    const state = lastAutoHandoff(ctx.env, event.session_id);
    if (!state) return {};
    return { output: sessionStartOutput(compactContext(state, resumeCommand(state.path)), event.dialect) };
  }
  // Gemini CLI's `clear` starts a new conversation in the same session: it is offered the same.
  if (event.source !== undefined && !["startup", "resume", "fork", "clear"].includes(event.source)) return {};
  const candidates = await startCandidates(event.cwd, ctx);
  const context = startupContext(candidates, ctx.now().getTime());
  return context === undefined ? {} : { output: sessionStartOutput(context, event.dialect) };
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
    const agent = agentOfSummary(c.summary);
    return { title: c.title, path: c.path, ...(created === undefined ? {} : { created_ms: created }), ...(agent === undefined ? {} : { agent }) };
  });
}
