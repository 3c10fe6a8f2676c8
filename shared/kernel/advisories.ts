import type { JsonPathSegment } from "./json-path.js";
import { type Report, type Rule, asArray, asRecord, asString } from "./issues.js";
import { checkRfc3339 } from "../time/timestamps.js";
import { checkCommitSha, checkPortablePath, checkSha256, parseLineRange } from "./checks.js";

/**
 * Checks Handoff makes beyond the contract. Kernel's reference validator does not make them, so
 * a manifest that fails one is still valid (its verdict is the contract's): `handoff validate`
 * lists them as warnings and exits 0. Each names something that will likely go wrong later: a
 * selector the compiler cannot resolve, a phase nothing can enter, a commit drift cannot check.
 */

function portable(value: unknown, at: readonly JsonPathSegment[], report: Report): void {
  const path = asString(value);
  const problem = path === undefined ? undefined : checkPortablePath(path);
  if (problem) report(at, problem);
}

/** The commit is a full object id and artifact hashes are SHA-256: drift compares them exactly. */
export const provenanceIsExact: Rule = (value, report) => {
  const provenance = asRecord(asRecord(value)?.provenance);
  const commit = asString(provenance?.commit);
  if (commit !== undefined && checkCommitSha(commit) !== undefined) {
    report(["provenance", "commit"], "is not a full commit sha (40 or 64 hex digits); resume resolves it in this clone only if it is a unique prefix");
  }
  asArray(provenance?.artifacts).forEach((artifact, i) => {
    const entry = asRecord(artifact);
    const sha = asString(entry?.sha256);
    if (sha !== undefined && checkSha256(sha) !== undefined) report(["provenance", "artifacts", i, "sha256"], "is not a SHA-256 (64 hex digits); this artifact will always read as changed");
    if (entry?.path === "") report(["provenance", "artifacts", i, "path"], "is empty; nothing is pinned");
    portable(entry?.path, ["provenance", "artifacts", i, "path"], report);
  });
};

/** Selector refinements the context compiler cannot resolve, though the contract allows them. */
export const selectorsResolve: Rule = (value, report) => {
  const context = asRecord(asRecord(value)?.context);
  for (const list of ["required", "optional"] as const) {
    asArray(context?.[list]).forEach((item, i) => {
      const selector = asRecord(item);
      if (selector === undefined) return;
      const at: JsonPathSegment[] = ["context", list, i];
      const lines = asString(selector.lines);
      if (lines !== undefined && lines !== "" && parseLineRange(lines) === undefined) report([...at, "lines"], "is not a line range 'A-B' with 1 <= A <= B; the compiler reports it invalid");
      for (const key of ["path", "git_diff", "heading", "grep", "lines"] as const) {
        if (selector[key] === "") report([...at, key], "is empty, so it counts as absent");
      }
      if (selector.context !== undefined && selector.grep === undefined) report([...at, "context"], "only applies to a grep selector");
      if (typeof selector.context === "number" && selector.context < 0) report([...at, "context"], "is negative; give 0 or more lines");
      portable(selector.path, [...at, "path"], report);
    });
  }
};

/** Phases are named once, and the entry phase is one of them. */
export const phasesAreEnterable: Rule = (value, report) => {
  const manifest = asRecord(value);
  const workflow = asRecord(manifest?.workflow);
  const names = new Set<string>();
  asArray(workflow?.phases).forEach((phase, i) => {
    const name = asString(asRecord(phase)?.name);
    if (name === undefined) return;
    if (name === "") report(["workflow", "phases", i, "name"], "is empty");
    else if (names.has(name)) report(["workflow", "phases", i, "name"], `'${name}' is used by an earlier phase; rules that name it flip both`);
    names.add(name);
  });
  const entry = asString(asRecord(manifest?.execution)?.entry_phase);
  if (entry !== undefined && workflow !== undefined && !names.has(entry)) {
    report(["execution", "entry_phase"], `names phase '${entry}', which is not in workflow.phases`);
  }
};

/** Preflight checks carry what they check. */
export const preflightIsComplete: Rule = (value, report) => {
  asArray(asRecord(asRecord(value)?.runtime)?.preflight).forEach((item, i) => {
    const check = asRecord(item);
    if (check === undefined) return;
    const at: JsonPathSegment[] = ["runtime", "preflight", i];
    if (check.check === "current_branch" && check.expected === undefined) report([...at, "expected"], "is missing: a current_branch check compares against it");
    if (check.check === "argv" && asArray(check.argv).length === 0) report([...at, "argv"], "is missing or empty: an argv check runs it");
    portable(check.path, [...at, "path"], report);
  });
};

/** Every advisory for a handoff (and the ones that apply to a checkpoint). */
export const KERNEL_HANDOFF_ADVISORIES: readonly Rule[] = [provenanceIsExact, selectorsResolve, phasesAreEnterable, preflightIsComplete];
export const KERNEL_CHECKPOINT_ADVISORIES: readonly Rule[] = [provenanceIsExact, selectorsResolve];

/** A receipt's ledger timestamps, when given, are RFC 3339. */
export const RECEIPT_ADVISORIES: readonly Rule[] = [
  (value, report) => {
    asArray(asRecord(value)?.loads_beyond_manifest).forEach((load, i) => {
      const ts = asString(asRecord(load)?.ts);
      const problem = ts === undefined ? undefined : checkRfc3339(ts);
      if (problem) report(["loads_beyond_manifest", i, "ts"], problem);
    });
  },
];
