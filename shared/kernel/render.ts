import type { ContextSelector, KernelHandoff } from "./schema.js";
import { KERNEL_SECTIONS } from "./sections.js";
import { codeSpan, fenceFor } from "../text/fence.js";

/**
 * Renders a validated kernel.handoff/v1 manifest as Markdown for people. The JSON stays the one
 * source of truth, and the first line says so. Values are data from another session: each is
 * escaped so it cannot open a heading, list, quote, fence or HTML block, and a multi-line value
 * stays inside its list item.
 */

const KNOWN_SECTIONS: ReadonlySet<string> = new Set(KERNEL_SECTIONS);

/** A line that starts like a block (heading, quote, list, fence, table, HTML, setext rule). */
const BLOCK_START = /^([#>+*=|<~`_-]|\d+[.)])/;

function escapeLine(line: string): string {
  // Inline HTML could open a raw block or comment a renderer keeps going with.
  const trimmed = line.trimStart().replace(/</g, "\\<");
  if (!BLOCK_START.test(trimmed)) return trimmed;
  // A backslash before ASCII punctuation is a literal in CommonMark; for "1." escape the dot.
  const digits = /^\d+/.exec(trimmed);
  return digits ? `${digits[0]}\\${trimmed.slice(digits[0].length)}` : `\\${trimmed}`;
}

/** Free text for a paragraph or list item; continuation lines are indented by `indent`. */
function text(value: string, indent = "  "): string {
  const lines = value.split(/\r\n|\r|\n/);
  return lines.map((line, i) => (i === 0 ? escapeLine(line) : line.trim() === "" ? "" : indent + escapeLine(line))).join("\n");
}

/** An identifier, path or command as a code span, whatever backticks it contains. */
function code(value: string): string {
  return codeSpan(value);
}

function bullets(values: readonly string[] | undefined, render: (value: string) => string = (v) => text(v)): string[] {
  return (values ?? []).map((value) => `- ${render(value)}`);
}

/** A section: a heading and its lines, or nothing when it has no lines. */
function section(level: number, title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [`${"#".repeat(level)} ${title}`, "", ...lines, ""];
}

function describeSelector(selector: ContextSelector): string {
  const parts: string[] = [];
  if (selector.git_diff !== undefined) parts.push(`git diff ${code(selector.git_diff)}`);
  if (selector.path !== undefined) parts.push(code(selector.path));
  if (selector.lines !== undefined) parts.push(`lines ${code(selector.lines)}`);
  if (selector.heading !== undefined) parts.push(`section ${code(selector.heading)}`);
  if (selector.grep !== undefined) parts.push(`grep ${code(selector.grep)} (±${selector.context ?? 3} lines)`);
  else if (selector.context !== undefined) parts.push(`context ${selector.context} lines`);
  const reason = selector.reason === undefined ? "" : `: ${text(selector.reason, "    ")}`;
  return `- ${parts.join(", ")}${reason}`;
}

function identityLines(m: KernelHandoff): string[] {
  const { identity, provenance } = m;
  const lines = [`- Name: ${code(identity.name)}`, `- Created: ${code(identity.created)}`];
  if (identity.session !== undefined) lines.push(`- Session: ${code(identity.session)}`);
  if (identity.tier !== undefined) lines.push(`- Tier: ${identity.tier}`);
  lines.push(`- Branch: ${code(provenance.branch)}`, `- Commit: ${code(provenance.commit)}`);
  lines.push(`- Uncommitted changes: ${provenance.dirty ? "yes" : "no"}`);
  return lines;
}

function artifactLines(m: KernelHandoff): string[] {
  return (m.provenance.artifacts ?? []).map((artifact) => {
    const purpose = artifact.purpose === undefined ? "" : `: ${text(artifact.purpose, "    ")}`;
    return `- ${code(artifact.path)} sha256 ${code(artifact.sha256)}${purpose}`;
  });
}

function contractLines(m: KernelHandoff): string[] {
  const contract = m.contract;
  if (contract === undefined) return [];
  const decisions = (contract.decisions_accepted ?? []).map((d) => `- ${text(d.decision)}${d.rationale === undefined ? "" : `\n  Why: ${text(d.rationale, "  ")}`}`);
  const rejected = (contract.alternatives_rejected ?? []).map((a) => `- ${text(a.alternative)}${a.reason === undefined ? "" : `\n  Rejected because: ${text(a.reason, "  ")}`}`);
  return [
    ...(contract.ref === undefined ? [] : [`Governing contract: ${code(contract.ref)}`, ""]),
    ...section(3, "Invariants", bullets(contract.invariants)),
    ...section(3, "Assumptions", bullets(contract.assumptions)),
    ...section(3, "Decisions accepted", decisions),
    ...section(3, "Alternatives rejected (do not re-explore)", rejected),
  ];
}

const STATUS_MARK: Record<string, string> = { inherited: "[x]", required: "[ ]", invalidated: "[!]" };

function workflowLines(m: KernelHandoff): string[] {
  const phases = m.workflow.phases.map((phase) => {
    const evidence = phase.evidence === undefined ? "" : `: ${text(phase.evidence, "    ")}`;
    return `- ${STATUS_MARK[phase.status] ?? "[?]"} ${code(phase.name)} ${phase.status}${evidence}`;
  });
  const rules = (m.workflow.invalidation_rules ?? []).map((rule) => {
    const glob = rule.when.path_glob === undefined ? "" : ` on ${code(rule.when.path_glob)}`;
    const targets = rule.invalidates.length === 0 ? "nothing" : rule.invalidates.map(code).join(", ");
    return `- When ${code(rule.when.event)}${glob}: invalidates ${targets}`;
  });
  return [...phases, "", ...section(3, "Invalidation rules", rules)];
}

function runtimeLines(m: KernelHandoff): string[] {
  const runtime = m.runtime;
  if (runtime === undefined) return [];
  const skills = (runtime.required_skills ?? []).map((skill) => {
    const pins = [skill.version === undefined ? "" : ` version ${skill.version}`, skill.sha256 === undefined ? "" : ` sha256 ${code(skill.sha256)}`];
    return `- ${code(skill.name)}${pins.join("")}`;
  });
  const preflight = (runtime.preflight ?? []).map((check) => {
    const detail = [
      check.path === undefined ? "" : ` ${code(check.path)}`,
      check.expected === undefined ? "" : ` expects ${code(check.expected)}`,
      check.argv === undefined ? "" : ` ${code(check.argv.join(" "))}`,
    ];
    return `- ${code(check.check)}${detail.join("")}`;
  });
  return [...section(3, "Required skills", skills), ...section(3, "Optional skills", bullets(runtime.optional_skills, code)), ...section(3, "Preflight checks (stop if one fails)", preflight)];
}

function contextLines(m: KernelHandoff): string[] {
  const { policy, budget } = m.context;
  const lines = [`- Policy: ${code(policy.mode)}`];
  if (budget?.target_tokens !== undefined || budget?.max_tokens !== undefined) {
    const parts = [budget.target_tokens === undefined ? "" : `target ${budget.target_tokens} tokens`, budget.max_tokens === undefined ? "" : `maximum ${budget.max_tokens} tokens`].filter(Boolean);
    lines.push(`- Budget: ${parts.join(", ")}`);
  }
  return [
    ...lines,
    "",
    ...section(3, "Required selectors", (m.context.required ?? []).map(describeSelector)),
    ...section(3, "Optional selectors", (m.context.optional ?? []).map(describeSelector)),
    ...section(3, "Forbidden (do not read)", bullets(m.context.forbidden, code)),
  ];
}

function executionLines(m: KernelHandoff): string[] {
  const { execution } = m;
  return [
    `- Entry phase: ${code(execution.entry_phase)}`,
    ...(execution.entrypoint === undefined ? [] : [`- First operation: ${text(execution.entrypoint)}`]),
    "",
    ...section(3, "Stop conditions", bullets(execution.stop_conditions)),
    ...section(3, "Checkpoints", bullets(execution.checkpoints)),
  ];
}

function outputLines(m: KernelHandoff): string[] {
  const outputs = m.outputs;
  if (outputs === undefined) return [];
  return [...bullets(outputs.required), ...(outputs.completion === undefined ? [] : [`- Completion: ${text(outputs.completion)}`])];
}

function fenced(value: string): string[] {
  const fence = fenceFor(value);
  return [fence, value, fence];
}

/**
 * Renders a manifest; `sourceFileName` is the manifest's file name, named on the first line.
 *
 * @example
 * ```ts
 * renderKernelMarkdown(manifest, "x-2026-07-10.json").split("\n")[0]
 * // "# RENDERED FROM x-2026-07-10.json — NOT AUTHORITATIVE"
 * ```
 */
export function renderKernelMarkdown(manifest: KernelHandoff, sourceFileName: string): string {
  const m = manifest;
  const others = Object.keys(m).filter((key) => !KNOWN_SECTIONS.has(key));
  const lines = [
    `# RENDERED FROM ${sourceFileName.replace(/[\r\n]+/g, " ")} — NOT AUTHORITATIVE`,
    "",
    `The JSON manifest is the source of truth; this page is a reading aid. Resume from the JSON.`,
    "",
    ...section(2, "Identity and provenance", identityLines(m)),
    ...section(3, "Pinned artifacts", artifactLines(m)),
    ...section(3, "Retrospective results this work depends on", bullets(m.provenance.retrospective_refs, code)),
    ...section(2, "Objective", [text(m.objective.goal, "")]),
    ...section(3, "Success conditions", bullets(m.objective.success_conditions)),
    ...section(3, "Non-goals", bullets(m.objective.non_goals)),
    ...section(2, "Contract", contractLines(m)),
    ...section(2, "Phases", workflowLines(m)),
    ...section(2, "Runtime", runtimeLines(m)),
    ...section(2, "Context", contextLines(m)),
    ...section(2, "Execution", executionLines(m)),
    ...section(2, "Open threads", bullets(m.open_threads)),
    ...section(2, "Warnings (failed approaches, do not re-explore)", bullets(m.warnings)),
    ...section(2, "Outputs", outputLines(m)),
    ...section(2, "Resume", fenced(m.resume.prompt)),
    // A valid manifest has no other keys (the schema is strict); named in case a caller skipped validation.
    ...section(2, "Other fields", others.length === 0 ? [] : [`Not rendered: ${others.map(code).join(", ")}`]),
  ];
  // Sections end with a blank line; drop repeats so one blank separates blocks. Values are
  // single entries, so a blank line inside one (say, the resume prompt) is kept as written.
  const tidy = lines.filter((line, i) => line !== "" || lines[i - 1] !== "");
  return `${tidy.join("\n").trimEnd()}\n`;
}
