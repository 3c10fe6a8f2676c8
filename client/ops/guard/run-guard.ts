import type { GuardDecision, HookEvent } from "./decide.js";
import { failClosed, judgeEvent } from "./policy.js";
import { findGuardRoot, POINTER_PATH } from "../../lib/guard-state.js";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Env } from "../../platform/env.js";

/**
 * One `handoff guard` run: a Claude Code PreToolUse event in, an exit code and a message out.
 * Exit 0 allows the tool call; exit 2 blocks it and Claude Code shows stderr to the agent (any
 * other exit lets the call run, so nothing here may end in one). The decision is policy.ts's,
 * the same one the MCP tools and `publish` ask. Fails closed: once a pointer exists, anything
 * that stops the guard from knowing the policy (an unreadable pointer, an unparseable event, an
 * exception while judging, a failed ledger write) blocks.
 */

export interface GuardOutcome {
  exitCode: 0 | 2;
  /** For stderr; empty when the call is allowed silently. */
  message: string;
  decision?: GuardDecision;
  root: string;
}

export function runGuard(input: string, options: { cwd: string; env: Env; now?: () => Date }): GuardOutcome {
  let event: HookEvent | undefined;
  let eventProblem: string | undefined;
  try {
    const parsed: unknown = JSON.parse(input);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) event = parsed as HookEvent;
    else eventProblem = "the hook event is not a JSON object";
  } catch {
    eventProblem = "the hook event on stdin is not JSON";
  }
  const cwd = typeof event?.cwd === "string" && isAbsolute(event.cwd) ? event.cwd : options.cwd;
  try {
    if (event === undefined) {
      const root = findGuardRoot(cwd);
      const outcome = judgeEvent({}, { cwd, home: options.env.HOME, env: options.env, ...(options.now ? { now: options.now } : {}) });
      if (!outcome.allowed) return { exitCode: 2, message: outcome.message, root: outcome.root };
      if (!existsSync(join(root, POINTER_PATH)) || outcome.decision?.mode === "advisory") return { exitCode: 0, message: "", root };
      return { exitCode: 2, message: `handoff guard: ${eventProblem}; a ${outcome.decision?.mode ?? "sealed"} manifest is active, so the call is blocked`, root };
    }
    const outcome = judgeEvent(event, { cwd, home: options.env.HOME, env: options.env, ...(options.now ? { now: options.now } : {}) });
    return { exitCode: outcome.allowed ? 0 : 2, message: outcome.message, root: outcome.root, ...(outcome.decision ? { decision: outcome.decision } : {}) };
  } catch (cause) {
    return guardException(cwd, cause);
  }
}

/** Any exception: exit 2 while a manifest is active (the reason on stderr), exit 0 when none is. */
export function guardException(cwd: string, cause: unknown): GuardOutcome {
  let root = cwd;
  try {
    root = findGuardRoot(cwd);
    if (!existsSync(join(root, POINTER_PATH))) return { exitCode: 0, message: "", root };
  } catch {
    // Not even the state can be found: block, since a manifest may be active.
  }
  return { exitCode: 2, message: failClosed(root, undefined, cause).message, root };
}
