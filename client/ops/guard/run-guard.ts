import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { decide, type GuardDecision, type HookEvent } from "./decide.js";
import { appendLedger, findGuardRoot, LEDGER_PATH, parsePointer, POINTER_PATH, UNSTATED_REASON } from "../../lib/guard-state.js";
import { kernelTimestamp } from "../../../shared/time/timestamps.js";
import type { Env } from "../../platform/env.js";

/**
 * One `handoff guard` run: a Claude Code PreToolUse event in, an exit code and a message out.
 * Exit 0 allows the tool call; exit 2 blocks it and Claude Code shows stderr to the agent.
 * Fails closed: once a pointer exists, anything that stops the guard from knowing the policy
 * (an unreadable pointer, an unparseable event, a failed ledger write) blocks.
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
  const root = findGuardRoot(cwd);
  const pointerPath = join(root, POINTER_PATH);
  let text: string;
  try {
    text = readFileSync(pointerPath, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { exitCode: 0, message: "", root };
    return block(root, `handoff guard: a manifest is active but its pointer ${pointerPath} cannot be read (${code ?? String(cause)}); blocking. Re-run 'handoff context MANIFEST --activate', or 'handoff context --deactivate'.`);
  }
  const pointer = parsePointer(text);
  if (typeof pointer === "string") {
    return block(root, `handoff guard: a manifest is active but its pointer ${pointerPath} is unusable: ${pointer}; blocking. Re-run 'handoff context MANIFEST --activate', or 'handoff context --deactivate'.`);
  }
  if (pointer.mode === "advisory") return { exitCode: 0, message: "", root, decision: { action: "allow", mode: "advisory", tool: "", targets: [] } };
  if (event === undefined) return block(root, `handoff guard: ${eventProblem}; a ${pointer.mode} manifest is active, so the call is blocked`);

  const decision = decide(pointer, event, { root, cwd, home: options.env.HOME });
  if (decision.action === "block") {
    return {
      exitCode: 2,
      root,
      decision,
      message: [
        `BLOCKED by sealed manifest: ${decision.reason}`,
        `  Manifest: ${pointer.manifest}`,
        "  Sealed runs prohibit contaminating context. Provide a narrower safe path/glob, or amend the manifest and re-activate.",
      ].join("\n"),
    };
  }
  if (decision.action === "ledger") {
    const ts = kernelTimestamp(options.now?.() ?? new Date());
    try {
      appendLedger(root, decision.targets.map((path) => ({ path, reason: UNSTATED_REASON, ts })));
    } catch (cause) {
      return block(root, `handoff guard: bounded access allowed but the ledger ${join(root, LEDGER_PATH)} could not be appended (${(cause as NodeJS.ErrnoException).code ?? String(cause)}); blocking to keep the receipt complete.`);
    }
  }
  return { exitCode: 0, message: "", root, decision };
}

function block(root: string, message: string): GuardOutcome {
  return { exitCode: 2, message, root };
}
