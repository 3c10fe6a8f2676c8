import { shellQuote } from "../ce/resume-command.js";
import { HandoffError } from "../errors.js";
import { slug } from "../text/slug.js";
import { timestampMs } from "../time/timestamps.js";
import { asArray, asRecord } from "./issues.js";
import { KERNEL_HANDOFF_SCHEMA_ID, KERNEL_SECTIONS } from "./sections.js";

/**
 * Assembles a kernel.handoff/v1 manifest from what an agent wrote (a partial manifest: objective,
 * contract, workflow, context, execution, ...) and what the CLI captured from git. Facts the
 * tool measured win over what the partial claims; everything else is the agent's. The result is
 * unvalidated: the caller runs validateKernelValue and writes nothing that fails.
 */

export interface PinnedArtifact {
  path: string;
  sha256: string;
  purpose?: string;
}

export interface CapturedState {
  /** Used when the partial does not name the work itself. */
  name: string;
  /** RFC 3339, normally `kernelTimestamp(new Date())` (shared/time/timestamps.ts). */
  created: string;
  branch: string;
  commit: string;
  dirty: boolean;
  /** Files pinned with `--pin`, hashed by the CLI. */
  artifacts?: PinnedArtifact[];
}

export interface BuildOptions {
  /** Where the manifest will be written, repo-relative, for the default resume prompt. */
  manifestPath?: string;
}

// Manifest names carry a date suffix, so they keep more of the name and cut it exactly.
const MANIFEST_SLUG = { maxLength: 80, cutAtWord: false } as const;

/**
 * The manifest's file name: a slug of the name and the UTC date.
 *
 * @example
 * ```ts
 * kernelManifestFileName("YAML skill unification!", new Date("2026-07-10T21:45:00Z"))
 * // "yaml-skill-unification-2026-07-10.json"
 * ```
 */
export function kernelManifestFileName(name: string, date: Date): string {
  if (Number.isNaN(date.getTime())) throw new HandoffError("internal", "kernelManifestFileName needs a valid date");
  return `${slug(name, MANIFEST_SLUG)}-${date.toISOString().slice(0, 10)}.json`;
}

function mergeArtifacts(fromPartial: unknown, pinned: readonly PinnedArtifact[]): unknown[] {
  const merged: unknown[] = [...asArray(fromPartial)];
  for (const artifact of pinned) {
    const at = merged.findIndex((entry) => asRecord(entry)?.path === artifact.path);
    // The hash the CLI just measured is the truth; a purpose the agent wrote is kept if the pin has none.
    const previous = at === -1 ? {} : (asRecord(merged[at]) ?? {});
    const entry: Record<string, unknown> = { ...previous, ...artifact };
    if (artifact.purpose === undefined && previous.purpose !== undefined) entry.purpose = previous.purpose;
    if (at === -1) merged.push(entry);
    else merged[at] = entry;
  }
  return merged;
}

/**
 * Merges a partial manifest with captured state.
 *
 * - `schema` is filled in when absent (a different value is left for validation to report).
 * - identity: `created` is the captured time; `name` is the partial's when it gives a non-empty
 *   one, else the captured name; other identity keys are the partial's.
 * - provenance: branch, commit and dirty are captured; a `dirty_tree_sha256` the partial carries
 *   is dropped (a handoff has none: only a checkpoint does); pinned artifacts replace same-path
 *   entries, by path. Keys the schema does not know are kept, so validation names them.
 * - context.policy.mode defaults to "advisory"; resume.prompt defaults to
 *   `handoff resume '<manifestPath>'` (default `_meta/handoffs/<file>.json`).
 *
 * @example
 * ```ts
 * buildKernelManifest({ objective: { goal: "g", success_conditions: [] } },
 *   { name: "fix login", created: "2026-07-10T21:45:00Z", branch: "main", commit: "ab…", dirty: false })
 * // { schema: "kernel.handoff/v1", identity: { name: "fix login", created: "2026-07-10T21:45:00Z" },
 * //   provenance: {...}, context: { policy: { mode: "advisory" } },
 * //   resume: { prompt: "handoff resume '_meta/handoffs/fix-login-2026-07-10.json'" }, objective: {...} }
 * ```
 */
export function buildKernelManifest(partial: unknown, captured: CapturedState, options: BuildOptions = {}): unknown {
  const given = partial === undefined || partial === null ? {} : asRecord(partial);
  if (given === undefined) {
    throw new HandoffError("invalid_document", "the partial manifest must be a JSON object", {
      hint: "write the objective, workflow, context and execution sections as one JSON object",
    });
  }
  const identity = { ...asRecord(given.identity) };
  if (typeof identity.name !== "string" || identity.name.trim() === "") identity.name = captured.name;
  identity.created = captured.created;

  const provenance: Record<string, unknown> = {
    ...asRecord(given.provenance),
    branch: captured.branch,
    commit: captured.commit,
    dirty: captured.dirty,
  };
  // Only a checkpoint pins its uncommitted changes; in a handoff the key is unknown to the schema.
  delete provenance.dirty_tree_sha256;
  const pinned = captured.artifacts ?? [];
  if (pinned.length > 0 || provenance.artifacts !== undefined) provenance.artifacts = mergeArtifacts(provenance.artifacts, pinned);

  const context = { ...asRecord(given.context) };
  const policy = { ...asRecord(context.policy) };
  if (policy.mode === undefined) policy.mode = "advisory";
  context.policy = policy;

  const resume = { ...asRecord(given.resume) };
  const createdMs = timestampMs(captured.created);
  // An unparsable time gets no default prompt: validation then names identity.created.
  if (resume.prompt === undefined && (options.manifestPath !== undefined || createdMs !== undefined)) {
    const name = typeof identity.name === "string" ? identity.name : captured.name;
    const path = options.manifestPath ?? `_meta/handoffs/${kernelManifestFileName(name, new Date(createdMs ?? 0))}`;
    resume.prompt = `handoff resume ${shellQuote(path)}`;
  }

  const merged: Record<string, unknown> = { schema: KERNEL_HANDOFF_SCHEMA_ID, ...given, identity, provenance, context, resume };
  // The schema's section order, then keys other tools added, so files read the same every time.
  const keys = new Set([...KERNEL_SECTIONS.filter((key) => Object.hasOwn(merged, key)), ...Object.keys(merged)]);
  return Object.fromEntries([...keys].map((key) => [key, merged[key]]));
}
