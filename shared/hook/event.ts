import * as z from "zod";

/**
 * The hook events `handoff hook` acts on, as Claude Code and Codex send them on stdin. Both send
 * `session_id`, `transcript_path`, `cwd` and `hook_event_name`, plus one field per event:
 * - `PreCompact`: `trigger` (`manual` or `auto`); Claude Code also `custom_instructions`.
 * - `SessionEnd` (Claude Code only): `reason` (`clear`, `logout`, `prompt_input_exit`, `other`...).
 * - `SessionStart`: `source` (`startup`, `resume`, `clear`, `compact`).
 * Fields this tool does not read are allowed (each agent adds its own: `model`, `turn_id`,
 * `permission_mode`), so a newer agent's event still parses.
 */
export const HOOK_EVENTS = ["PreCompact", "SessionEnd", "SessionStart"] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export const HookEventSchema = z.looseObject({
  hook_event_name: z.string().min(1),
  session_id: z.string().min(1).max(512),
  // Codex sends null when the session has no rollout file yet.
  transcript_path: z.string().min(1).nullable().optional(),
  cwd: z.string().min(1),
  trigger: z.string().optional(),
  source: z.string().optional(),
  reason: z.string().optional(),
});
export type HookEvent = z.infer<typeof HookEventSchema>;

/**
 * Reads a hook event, or says in one line why it cannot.
 *
 * @example
 * ```ts
 * parseHookEvent('{"hook_event_name":"PreCompact","session_id":"s","cwd":"/r","trigger":"auto","transcript_path":"/t.jsonl"}')
 * // { ok: true, event: { hook_event_name: "PreCompact", ... } }
 * parseHookEvent("") // { ok: false, reason: "no hook event on stdin: ..." }
 * ```
 */
export function parseHookEvent(text: string): { ok: true; event: HookEvent } | { ok: false; reason: string } {
  if (text.trim() === "") return { ok: false, reason: "no hook event on stdin: run 'handoff hook' from an agent's hook configuration, which sends the event as JSON" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "the hook event on stdin is not JSON" };
  }
  const parsed = HookEventSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `the hook event is not one this tool reads: ${issue ? `${issue.path.join(".") || "event"}: ${issue.message}` : "invalid"}` };
  }
  return { ok: true, event: parsed.data };
}
