import type { CreateResult } from "../ops/create/create.js";
import type { KernelCreateResult } from "../ops/create/kernel.js";
import { describeRedaction, type RedactionSummary } from "../../shared/redact/fields.js";
import { oneLine } from "../platform/terminal.js";

/**
 * Human output for commands: plain text for stderr, built from a command's result value so the
 * --json object and the words never disagree.
 */

/** What was captured, where it went, how long it lasts, what to worry about. */
export function formatCreateReport(result: CreateResult, options: { closing?: boolean } = {}): string {
  const { metadata, git } = result;
  const lines = [`Captured "${oneLine(metadata.title)}"`, `  summary: ${oneLine(metadata.summary)}`];
  if (metadata.keywords.length > 0) lines.push(`  keywords: ${metadata.keywords.map(oneLine).join(", ")}`);
  if (metadata.resume_focus) lines.push(`  focus: ${oneLine(metadata.resume_focus)}`);
  lines.push(`  git: ${git ? describeGit(git, metadata.repository) : `none (cwd ${metadata.cwd})`}`);
  for (const note of result.notes) lines.push(`  note: ${oneLine(note)}`);
  lines.push(...redactionLines(result.redaction));
  lines.push("", `Wrote ${oneLine(result.path)}`);
  if (result.changes) {
    const files = result.changes.tracked.length + result.changes.untracked.length;
    lines.push(
      `Wrote ${oneLine(result.changes.path)} (the uncommitted work: ${files} file${files === 1 ? "" : "s"}, ${result.changes.total_bytes} bytes${result.changes.left_out.length > 0 ? `, ${result.changes.left_out.length} left out` : ""}; applied only with resume --apply-changes)`,
    );
  }
  lines.push(`Retention: ${result.retention}.`);
  if (result.warnings.length > 0) {
    lines.push("", "Warnings:");
    for (const warning of result.warnings) lines.push(`  - ${oneLine(warning.message)}`);
  }
  // With --publish the share URL, not the local path, is what the next session resumes from.
  if (options.closing !== false) lines.push("", "Resume in a new session with:");
  return lines.join("\n");
}

function describeGit(git: NonNullable<CreateResult["git"]>, repository: string | undefined): string {
  const where = git.detached ? "detached HEAD" : `branch ${git.branch ?? "(unknown)"}`;
  const at = git.head ? ` at ${git.head.slice(0, 12)}` : " (no commits)";
  const state = git.dirty > 0 ? `, ${git.dirty} uncommitted change${git.dirty === 1 ? "" : "s"}` : ", clean";
  const ahead = git.ahead ? `, ${git.ahead} ahead of ${git.upstream}` : "";
  return oneLine(`${repository ?? git.namespace}, ${where}${at}${state}${ahead}`);
}

/** The kernel manifest's report: its identity and provenance, where it went, warnings. */
export function formatKernelReport(result: KernelCreateResult, options: { closing?: boolean } = {}): string {
  const { identity, provenance } = result.metadata;
  const artifacts = Array.isArray(provenance.artifacts) ? provenance.artifacts.length : 0;
  const lines = [
    `Captured kernel manifest "${oneLine(String(identity.name))}"`,
    `  provenance: branch ${oneLine(String(provenance.branch))} at ${String(provenance.commit).slice(0, 12)}, ${provenance.dirty ? "dirty (tree hash recorded)" : "clean"}${artifacts ? `, ${artifacts} pinned artifact${artifacts === 1 ? "" : "s"}` : ""}`,
  ];
  for (const note of result.notes) lines.push(`  note: ${oneLine(note)}`);
  lines.push(...redactionLines(result.redaction));
  lines.push("", `Wrote ${oneLine(result.path)} (validated)`, `Retention: ${result.retention}.`);
  if (result.warnings.length > 0) {
    lines.push("", "Warnings:");
    for (const warning of result.warnings) lines.push(`  - ${oneLine(warning.message)}`);
  }
  // With --publish the share URL, not the local path, is what the next session resumes from.
  if (options.closing !== false) lines.push("", "Resume in a new session with:");
  return lines.join("\n");
}

/** "Redacted 2 secrets: ..." with one line per rule; nothing when the scan found nothing. */
export function redactionLines(summary: RedactionSummary): string[] {
  if (!summary.applied || summary.total === 0) return [];
  return [`  redacted: ${summary.total} secret${summary.total === 1 ? "" : "s"} replaced by [REDACTED:<rule>]`, ...describeRedaction(summary).map((line) => `    ${line}`)];
}
