import { statSync } from "node:fs";
import { resolve } from "node:path";
import { HandoffError } from "../../shared/errors.js";
import { namedLikeHandoffFile } from "../../shared/sniff.js";
import { MAX_DOCUMENT_BYTES as SOURCE_LIMIT } from "../../shared/size-limits.js";
import type { HandoffMeta } from "../../shared/api/handoff.js";
import { intFlag } from "../args.js";
import { type HumanOutput, implement } from "../command.js";
import type { resumeSpec } from "../registry.js";
import { type DiscoveryResult, discoverHandoffs } from "../discover/discover.js";
import { captureGitIdentity } from "../git.js";
import { httpRequest } from "../http.js";
import { type Io, readStdin } from "../io.js";
import { formatNothingFound, formatOrientation, formatShortlist } from "../resume/format.js";
import type { OrientationResult } from "../resume/orient.js";
import { managedRoots } from "../store.js";
import { decodeUtf8, readRegularFile, tooLarge } from "../read-file.js";
import { oneLine } from "../platform/terminal.js";
import { urlFromPrompt, urlFromStdin } from "../resume/url-input.js";
import type { ChangesSummary } from "../../shared/changes/bundle.js";
import { shellQuote } from "../../shared/ce/resume-command.js";
import type { AppliedChanges } from "../changes/apply.js";

const URL_TIMEOUT_MS = 15_000;

export type ResumeResult =
  | ({ kind: "discovery" } & DiscoveryResult)
  | ({ kind: "orientation" } & OrientationResult & ChangesFacts)
  | ({ kind: "peek" } & HandoffMeta);

/** What a source's changes bundle holds, and what --apply-changes did with it. */
interface ChangesFacts {
  changes?: ChangesSummary;
  /** The command that applies the bundle (never run for you). */
  apply_command?: string;
  changes_applied?: AppliedChanges;
  /** --apply-changes refused or met a conflict: why, and nothing was applied. */
  changes_not_applied?: { message: string; hint?: string; conflicts?: string[] };
}

export const command = implement<typeof resumeSpec>()({
  async run({ flags, positionals, io }): Promise<ResumeResult> {
    const limit = intFlag("limit", flags.limit, 1, 100) ?? 5;
    const maxCandidates = intFlag("max-candidates", flags["max-candidates"], 1, 1_000_000) ?? 1000;
    if (flags["url-stdin"]) {
      if (positionals.length > 0 || flags.in !== undefined) {
        throw new HandoffError("usage", "--url-stdin reads the share URL from stdin: pass no SOURCE, keywords or --in with it", { hint: "printf '%s' \"$URL\" | handoff resume --url-stdin" });
      }
      const selection = { kind: "url" as const, ...(await urlFromStdin(io, "resume")) };
      if (flags.peek) return { kind: "peek", ...(await peek(selection, io)) };
      return orientation(selection, "handoff resume --url-stdin", flags["apply-changes"] === true, io);
    }
    if (flags.paste) {
      if (positionals.length > 0 || flags.in !== undefined || flags["url-stdin"]) {
        throw new HandoffError("usage", "--paste asks for the share URL: pass no SOURCE, keywords, --in or --url-stdin with it", { hint: "handoff resume --paste" });
      }
      const selection = { kind: "url" as const, ...(await urlFromPrompt(io, "resume")) };
      if (flags.peek) return { kind: "peek", ...(await peek(selection, io)) };
      return orientation(selection, "handoff resume --paste", flags["apply-changes"] === true, io);
    }
    const [first, ...rest] = positionals;
    let boundary = flags.in === undefined ? undefined : folder(resolve(io.cwd, flags.in), "--in");
    let keywords = positionals;
    if (first !== undefined && flags.in === undefined) {
      const selection = classify(first, io.cwd);
      if (selection.kind === "folder") {
        boundary = selection.path;
        keywords = rest;
      } else if (selection.kind !== "keywords") {
        if (flags.peek) return { kind: "peek", ...(await peek(selection, io)) };
        if (rest.length > 0) throw new HandoffError("usage", "a SOURCE is resumed alone: extra words after it are not keywords", { hint: `run 'handoff resume ${first}'` });
        const again = selection.kind === "url" ? "handoff resume --paste" : selection.kind === "file" ? `handoff resume ${shellQuote(selection.path)}` : "handoff resume -";
        return orientation(selection, again, flags["apply-changes"] === true, io);
      }
    }
    if (flags["apply-changes"]) throw new HandoffError("usage", "--apply-changes goes with a SOURCE that carries a changes bundle", { hint: "run 'handoff resume <file-or-url> --apply-changes'" });
    if (flags.peek) throw new HandoffError("usage", "--peek goes with a share URL", { hint: "run 'handoff resume <url> --peek'" });
    const result = await discoverShortlist({ boundary, keywords, limit, maxCandidates }, io);
    return { kind: "discovery", ...result };
  },
  human(result, { color }): HumanOutput {
    if (result.kind === "peek") {
      const views = result.views_left === null ? "unlimited views" : `${result.views_left} of ${result.max_views} views left`;
      return { out: oneLine(`${result.id}: scope ${result.scope}, ${views}, expires ${result.expires_at}, ${result.size} bytes (no view was spent)`) };
    }
    if (result.kind === "orientation") {
      const left = "views_left" in result ? (result.views_left === null ? "this share link has unlimited views until it expires" : `this share link has ${result.views_left} view${result.views_left === 1 ? "" : "s"} left`) : undefined;
      const notApplied = result.changes_not_applied ? `error: ${oneLine(result.changes_not_applied.message)}${result.changes_not_applied.hint ? `\n  hint: ${oneLine(result.changes_not_applied.hint)}` : ""}` : undefined;
      const err = [left, notApplied].filter((line) => line !== undefined).join("\n");
      return { out: formatOrientation(result, color), ...(err ? { err } : {}) };
    }
    const warnings = result.warnings.map((w) => `warning: ${oneLine(w)}`);
    const { overBound } = result.searched.skipped;
    if (overBound > 0) {
      warnings.push(`note: ${overBound} older file${overBound === 1 ? " was" : "s were"} not considered (--max-candidates ${result.filters.max_candidates} per folder, most recent first); raise --max-candidates to search them`);
    }
    if (result.searched.truncated) warnings.push("note: the folder walk stopped at its entry limit; some files were not seen");
    if (result.candidates.length === 0) return { err: [...warnings, formatNothingFound(result)].join("\n") };
    return { ...(warnings.length > 0 ? { err: warnings.join("\n") } : {}), out: formatShortlist(result) };
  },
  json: ({ kind: _kind, ...result }) => result,
  outcome(result) {
    if (result.kind === "peek") return "ok";
    if (result.kind === "discovery") return result.candidates.length === 0 ? "nothing_found" : "ok";
    if (result.hard_divergence || result.changes_not_applied) return "diverged";
    return result.sufficient ? "ok" : "insufficient";
  },
});

/**
 * Orientation from one selected source, with what its changes bundle holds, and with
 * `apply`, the bundle applied (or why not: nothing is half-applied, and the orientation is
 * still returned, since reading a share link spent a view).
 */
async function orientation(selection: Exclude<Selection, { kind: "folder" } | { kind: "keywords" }>, again: string, apply: boolean, io: Io): Promise<ResumeResult> {
  const text = await readSource(selection, io);
  const { orientFromText } = await import("../resume/orient.js");
  const result = await orientFromText(selection.label, text.text, { cwd: io.cwd, env: io.env, ...(selection.kind === "file" ? { sourcePath: selection.path } : {}) });
  const facts: ChangesFacts = {};
  let bytes = text.changes;
  if (bytes === undefined && selection.kind === "file") {
    const { readChangesBeside } = await import("../changes/beside.js");
    bytes = readChangesBeside(selection.path, text.text);
  }
  if (bytes === undefined && apply) throw new HandoffError("usage", "--apply-changes: this handoff carries no changes bundle", { hint: "the sender creates or publishes one with --with-changes" });
  if (bytes !== undefined) {
    const { decodeChanges, summarizeChanges } = await import("../../shared/changes/bundle.js");
    const bundle = decodeChanges(bytes);
    if (!bundle.ok) throw bundle.error;
    facts.changes = summarizeChanges(bundle.value);
    if (apply) {
      const { applyChanges } = await import("../changes/apply.js");
      try {
        facts.changes_applied = await applyChanges(bundle.value, io.cwd, io.env);
      } catch (error) {
        if (!(error instanceof HandoffError) || error.reason !== "diverged") throw error;
        const conflicts = (error.details as { conflicts?: string[] } | undefined)?.conflicts;
        facts.changes_not_applied = { message: error.message, ...(error.hint ? { hint: error.hint } : {}), ...(conflicts ? { conflicts } : {}) };
      }
    } else {
      facts.apply_command = `${again} --apply-changes`;
    }
  }
  return { kind: "orientation", ...result, ...facts, ...(text.views_left !== undefined ? { views_left: text.views_left } : {}) };
}

/**
 * Discovery without a source: a shortlist of likely handoffs in `boundary` (else the managed
 * roots). It never selects one (`selected: null`). Shared by the command and the MCP server.
 */
export async function discoverShortlist(options: { boundary?: string | undefined; keywords: string[]; limit: number; maxCandidates: number }, io: Io): Promise<DiscoveryResult> {
  // Started first: the git processes run while this process enumerates the store.
  const current = captureGitIdentity(io.cwd, io.env).then((git) => ({
    cwd: io.cwd,
    ...(git?.repository ? { repository: git.repository } : {}),
    ...(git?.repo_root_sha ? { repo_root_sha: git.repo_root_sha } : {}),
    ...(git?.worktree_path ? { worktree_path: git.worktree_path } : {}),
    ...(git?.toplevel ? { toplevel: git.toplevel } : {}),
    ...(git?.branch ? { branch: git.branch } : {}),
  }));
  return discoverHandoffs({
    boundaries: options.boundary ? [{ path: options.boundary, managed: false }] : managedRoots(io.env).map((path) => ({ path, managed: true })),
    keywords: options.keywords.map((k) => k.trim()).filter((k) => k !== ""),
    maxCandidates: options.maxCandidates,
    limit: options.limit,
    current,
    now: Date.now(),
  });
}

/**
 * Orientation from one explicit source (a file, '-' or a URL), as `handoff resume SOURCE` gives
 * it. A folder or keywords are not a source: discovery is a separate step that selects nothing.
 */
export async function orientFromSource(word: string, io: Io): Promise<OrientationResult> {
  const selection = classify(word, io.cwd);
  if (selection.kind === "folder" || selection.kind === "keywords") {
    throw new HandoffError("usage", `'${word}' is ${selection.kind === "folder" ? "a folder" : "not a file or URL"}: orient needs one explicit source`, {
      hint: "discover a shortlist first, and let the user choose one of its paths",
    });
  }
  const text = await readSource(selection, io);
  const { orientFromText } = await import("../resume/orient.js");
  return orientFromText(selection.label, text.text, { cwd: io.cwd, env: io.env, ...(selection.kind === "file" ? { sourcePath: selection.path } : {}) });
}

async function peek(selection: Selection, io: Io): Promise<HandoffMeta> {
  if (selection.kind !== "url") throw new HandoffError("usage", "--peek goes with a share URL", { hint: "run 'handoff resume <url> --peek'" });
  const { peekShareUrl } = await import("../resume/share-source.js");
  return peekShareUrl(selection.url, io);
}

type Selection =
  | { kind: "file"; path: string; label: string }
  | { kind: "stdin"; label: string }
  | { kind: "url"; url: string; label: string }
  | { kind: "folder"; path: string }
  | { kind: "keywords" };

/**
 * An explicit selection is anything that names a source: `-`, a URL, or an existing path. A word
 * that names nothing on disk is a keyword, unless it plainly meant to be a path (a slash or a
 * handoff file extension), in which case it is reported missing rather than searched for.
 */
function classify(word: string, cwd: string): Selection {
  if (word === "-") return { kind: "stdin", label: "stdin" };
  // The #fragment of a share URL is its key: it never appears in output.
  if (/^https?:\/\//i.test(word)) return { kind: "url", url: word, label: word.replace(/#.*$/s, "") };
  const path = resolve(cwd, word);
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return { kind: "folder", path };
  if (stat) return { kind: "file", path, label: path };
  if (namedLikeHandoffFile(word)) {
    throw new HandoffError("unreadable", `cannot read ${path}: no such file`, {
      hint: "check the path, or run 'handoff resume' without a source to list handoffs",
    });
  }
  return { kind: "keywords" };
}

function folder(path: string, flag: string): string {
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new HandoffError("usage", `${flag} ${path} is not a folder`, { hint: "pass an existing folder to search" });
  }
  return path;
}

/** A source's text; a share link also says how many views it has left after this read, and may carry a changes bundle. */
async function readSource(selection: Exclude<Selection, { kind: "folder" } | { kind: "keywords" }>, io: Io): Promise<{ text: string; views_left?: number | null; changes?: Uint8Array }> {
  let bytes: Uint8Array | "too_large";
  let viewsLeft: number | null | undefined;
  let changes: Uint8Array | undefined;
  if (selection.kind === "stdin") {
    if (io.stdinIsTTY) throw new HandoffError("usage", "'-' reads the handoff from stdin, and stdin is a terminal", { hint: "pipe the document in: pbpaste | handoff resume -" });
    bytes = await readStdin(io, SOURCE_LIMIT);
  } else if (selection.kind === "url") {
    const read = await readUrl(selection.url, io);
    bytes = read.bytes;
    viewsLeft = read.views_left;
    changes = read.changes;
  } else {
    bytes = readRegularFile(selection.path, SOURCE_LIMIT, { what: "the source", label: selection.label });
  }
  if (bytes === "too_large") throw tooLarge(selection.label, SOURCE_LIMIT, "select the handoff itself, not a log or transcript");
  const text = decodeUtf8(bytes, selection.label, "unreadable");
  return { text, ...(viewsLeft === undefined ? {} : { views_left: viewsLeft }), ...(changes ? { changes } : {}) };
}

async function readUrl(url: string, io: Io): Promise<{ bytes: Uint8Array | "too_large"; views_left?: number | null; changes?: Uint8Array }> {
  const { readShareUrl } = await import("../resume/share-source.js");
  const shared = await readShareUrl(url, io);
  if (shared !== undefined) return { bytes: shared.plaintext, views_left: shared.views_left, ...(shared.changes ? { changes: shared.changes } : {}) };
  let response;
  try {
    response = await httpRequest(url, { timeoutMs: URL_TIMEOUT_MS, maxBytes: SOURCE_LIMIT, headers: { accept: "text/markdown, text/plain, application/json;q=0.9, */*;q=0.1" } });
  } catch (error) {
    if (error instanceof HandoffError && error.reason === "too_large") return { bytes: "too_large" };
    throw error;
  }
  if (response.status !== 200) {
    throw new HandoffError("unreadable", `cannot read ${url}: HTTP ${response.status}`, {
      hint: response.status === 404 ? "check the URL" : response.status === 401 || response.status === 403 ? "the page needs access you do not have; download it and resume from the file" : "try again later, or download it and resume from the file",
    });
  }
  return { bytes: response.bytes };
}
