// The ids come from sections.ts, not the zod schemas: discovery indexes manifests without zod.
import { KERNEL_CHECKPOINT_SCHEMA_ID, KERNEL_HANDOFF_SCHEMA_ID } from "../kernel/sections.js";
import { parseStrictJson } from "../kernel/strict-json.js";
import type { CandidateFrontmatter } from "./rank.js";

/**
 * The discovery index of a kernel manifest or checkpoint, from its JSON (there is no
 * frontmatter): the name as title, identity.created as the creation time, the objective's goal
 * (a checkpoint's task goal) as summary, provenance.branch as branch. It lives in the repository
 * it describes, so the repository facts are the current checkout's.
 *
 * @example
 * ```ts
 * kernelIndex('{"schema": "kernel.handoff/v1", "identity": {"name": "x", "created": "2026-07-10T21:45:00Z"}}', {})
 * // { ok: true, frontmatter: { title: "x", created_at: "2026-07-10T21:45:00Z" } }
 * ```
 */
export function kernelIndex(
  text: string,
  repository: Pick<CandidateFrontmatter, "repository" | "repo_root_sha" | "cwd">,
): { ok: true; frontmatter: CandidateFrontmatter } | { ok: false; reason: string } {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return { ok: false, reason: `not valid JSON (line ${parsed.error.line}): ${parsed.error.message}` };
  const doc = record(parsed.value);
  const schema = doc?.schema;
  if (schema !== KERNEL_HANDOFF_SCHEMA_ID && schema !== KERNEL_CHECKPOINT_SCHEMA_ID) return { ok: false, reason: "not a kernel.handoff/v1 manifest or kernel.checkpoint/v1" };
  const identity = record(doc?.identity);
  const goal = schema === KERNEL_HANDOFF_SCHEMA_ID ? record(doc?.objective)?.goal : record(doc?.task)?.goal;
  const out: CandidateFrontmatter = {};
  for (const [key, value] of Object.entries(repository)) if (typeof value === "string") out[key as "repository"] = value;
  if (typeof identity?.name === "string") out.title = identity.name;
  if (typeof identity?.created === "string") out.created_at = identity.created;
  if (typeof goal === "string") out.summary = goal;
  const branch = record(doc?.provenance)?.branch;
  if (typeof branch === "string") out.branch = branch;
  return { ok: true, frontmatter: out };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
