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
import { rankingCheckout } from "../lib/ranking-checkout.js";
import { httpRequest } from "../http.js";
import { type Io, readStdin } from "../io.js";
import { formatNothingFound, formatOrientation, formatShortlist } from "../resume/format.js";
import type { OrientationResult } from "../resume/orient.js";
import type { TeamDiscoveryResult } from "../resume/team-source.js";
import { isHandoffId } from "../../shared/handoff-id.js";
import { managedRoots } from "../store.js";
import { decodeUtf8, readRegularFile, tooLarge } from "../read-file.js";
import { oneLine } from "../platform/terminal.js";

const URL_TIMEOUT_MS = 15_000;

export type ResumeResult =
  | ({ kind: "discovery" } & DiscoveryResult)
  | ({ kind: "team" } & TeamDiscoveryResult)
  | ({ kind: "orientation" } & OrientationResult)
  | ({ kind: "peek" } & HandoffMeta);

export const command = implement<typeof resumeSpec>()({
  async run({ flags, positionals, io }): Promise<ResumeResult> {
    const limit = intFlag("limit", flags.limit, 1, 100) ?? 5;
    const maxCandidates = intFlag("max-candidates", flags["max-candidates"], 1, 1_000_000) ?? 1000;
    if (flags.passphrase && (flags["url-stdin"] || flags.peek || flags.in !== undefined)) {
      throw new HandoffError("usage", "--passphrase reads the passphrase from stdin: it goes with a share URL on the command line, without --url-stdin, --peek or --in", { hint: "printf '%s' \"$PASSPHRASE\" | handoff resume '<url>' --passphrase" });
    }
    if (flags["url-stdin"]) {
      if (positionals.length > 0 || flags.in !== undefined) {
        throw new HandoffError("usage", "--url-stdin reads the share URL from stdin: pass no SOURCE, keywords or --in with it", { hint: "printf '%s' \"$URL\" | handoff resume --url-stdin" });
      }
      const selection = await urlFromStdin(io);
      if (flags.peek) return { kind: "peek", ...(await peek(selection, io)) };
      const text = await readSource(selection, io);
      const { orientFromText } = await import("../resume/orient.js");
      const result = await orientFromText(selection.label, text.text, { cwd: io.cwd, env: io.env });
      return { kind: "orientation", ...result, ...(text.views_left !== undefined ? { views_left: text.views_left } : {}) };
    }
    if (flags.team) return resumeTeam(positionals, limit, Boolean(flags.in !== undefined || flags.peek || flags.passphrase), io);
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
        if (flags.passphrase && selection.kind !== "url") throw new HandoffError("usage", "--passphrase goes with a share URL", { hint: "printf '%s' \"$PASSPHRASE\" | handoff resume '<url>' --passphrase" });
        const passphrase = flags.passphrase ? await (await import("../platform/secret-input.js")).readPassphrase(io, { confirm: false }) : undefined;
        const text = await readSource(selection, io, passphrase);
        const { orientFromText } = await import("../resume/orient.js");
        const result = await orientFromText(selection.label, text.text, { cwd: io.cwd, env: io.env, ...(selection.kind === "file" ? { sourcePath: selection.path } : {}) });
        return { kind: "orientation", ...result, ...(text.views_left !== undefined ? { views_left: text.views_left } : {}) };
      }
    }
    if (flags.peek) throw new HandoffError("usage", "--peek goes with a share URL", { hint: "run 'handoff resume <url> --peek'" });
    if (flags.passphrase) throw new HandoffError("usage", "--passphrase goes with a share URL", { hint: "printf '%s' \"$PASSPHRASE\" | handoff resume '<url>' --passphrase" });
    const result = await discoverShortlist({ boundary, keywords, limit, maxCandidates }, io);
    return { kind: "discovery", ...result };
  },
  human(result, { color }): HumanOutput {
    if (result.kind === "peek") {
      const views = result.views_left === null ? "unlimited views" : `${result.views_left} of ${result.max_views} views left`;
      return { out: oneLine(`${result.id}: scope ${result.scope}, ${views}, expires ${result.expires_at}, ${result.size} bytes${result.passphrase ? ", needs a passphrase" : ""} (no view was spent)`) };
    }
    if (result.kind === "team") {
      const { formatTeamShortlist } = teamFormat;
      const warnings = result.warnings.map((w) => `warning: ${oneLine(w)}`);
      if (result.candidates.length === 0) {
        const why = result.unreadable.length > 0 ? ` (${result.unreadable.length} live entr${result.unreadable.length === 1 ? "y has" : "ies have"} no card this machine can open: 'handoff team' lists them)` : "";
        return { err: [...warnings, oneLine(`No team handoff found on ${result.server}${result.filters.keywords.length > 0 ? ` matching ${result.filters.keywords.map((k) => `'${k}'`).join(", ")}` : ""}${why}.`)].join("\n") };
      }
      return { out: formatTeamShortlist!(result), ...(warnings.length > 0 ? { err: warnings.join("\n") } : {}) };
    }
    if (result.kind === "orientation") {
      const left = "views_left" in result ? (result.views_left === null ? "this share link has unlimited views until it expires" : `this share link has ${result.views_left} view${result.views_left === 1 ? "" : "s"} left`) : undefined;
      return { out: formatOrientation(result, color), ...(left ? { err: left } : {}) };
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
    if (result.kind === "discovery" || result.kind === "team") return result.candidates.length === 0 ? "nothing_found" : "ok";
    if (result.hard_divergence) return "diverged";
    return result.sufficient ? "ok" : "insufficient";
  },
});

/** The team module, loaded by `--team` only (human output is synchronous, so it is kept here once loaded). */
const teamFormat: { formatTeamShortlist?: (result: TeamDiscoveryResult) => string } = {};

/**
 * `resume --team [KEYWORDS...]`: the team inbox's shortlist; `resume --team ID` with the id of a
 * live entry resumes it (one view), through its card's share key.
 */
async function resumeTeam(positionals: string[], limit: number, otherSource: boolean, io: Io): Promise<ResumeResult> {
  if (otherSource) throw new HandoffError("usage", "--team searches the team inbox: it goes without --in, --peek or --passphrase", { hint: "run 'handoff resume --team [KEYWORDS...]'" });
  const team = await import("../resume/team-source.js");
  teamFormat.formatTeamShortlist = team.formatTeamShortlist;
  const [only] = positionals;
  if (positionals.length === 1 && only !== undefined && isHandoffId(only)) {
    const url = await team.teamShareUrl(only, io);
    if (url !== undefined) {
      const label = url.replace(/#.*$/s, "");
      const text = await readSource({ kind: "url", url, label }, io);
      const { orientFromText } = await import("../resume/orient.js");
      const result = await orientFromText(label, text.text, { cwd: io.cwd, env: io.env });
      return { kind: "orientation", ...result, ...(text.views_left !== undefined ? { views_left: text.views_left } : {}) };
    }
  }
  return { kind: "team", ...(await team.discoverTeam({ keywords: positionals, limit }, io)) };
}

/**
 * Discovery without a source: a shortlist of likely handoffs in `boundary` (else the managed
 * roots). It never selects one (`selected: null`). Shared by the command and the MCP server.
 */
export async function discoverShortlist(options: { boundary?: string | undefined; keywords: string[]; limit: number; maxCandidates: number }, io: Io): Promise<DiscoveryResult> {
  // Started first: the git processes run while this process enumerates the store.
  const current = rankingCheckout(io.cwd, io.env);
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
  const teamId = /^team:(.*)$/s.exec(word)?.[1];
  if (teamId !== undefined && isHandoffId(teamId)) {
    const { teamShareUrl } = await import("../resume/team-source.js");
    const url = await teamShareUrl(teamId, io);
    if (url === undefined) throw new HandoffError("not_found", `no live team entry ${teamId} on this server`, { hint: "discover the team inbox again; the entry may have expired or been revoked" });
    word = url;
  }
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

/** A share URL is short; more than this on stdin is not one. */
const URL_STDIN_LIMIT = 8 * 1024;

/** `--url-stdin`: exactly one http(s) URL on stdin (surrounding whitespace and one newline allowed). */
async function urlFromStdin(io: Io): Promise<Selection & { kind: "url" }> {
  if (io.stdinIsTTY) throw new HandoffError("usage", "--url-stdin reads the share URL from stdin, and stdin is a terminal", { hint: "printf '%s' \"$URL\" | handoff resume --url-stdin" });
  const bytes = await readStdin(io, URL_STDIN_LIMIT);
  if (bytes === "too_large") throw new HandoffError("usage", `--url-stdin: stdin holds more than ${URL_STDIN_LIMIT} bytes, which is not one share URL`, { hint: "pipe only the URL" });
  const url = new TextDecoder().decode(bytes).trim();
  if (url === "" || /\s/.test(url) || !/^https?:\/\//i.test(url)) {
    throw new HandoffError("usage", "--url-stdin: stdin must hold one http(s) share URL and nothing else", { hint: "printf '%s' \"$URL\" | handoff resume --url-stdin" });
  }
  return { kind: "url", url, label: url.replace(/#.*$/s, "") };
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

/** A source's text; a share link also says how many views it has left after this read. */
async function readSource(selection: Exclude<Selection, { kind: "folder" } | { kind: "keywords" }>, io: Io, passphrase?: string): Promise<{ text: string; views_left?: number | null }> {
  let bytes: Uint8Array | "too_large";
  let viewsLeft: number | null | undefined;
  if (selection.kind === "stdin") {
    if (io.stdinIsTTY) throw new HandoffError("usage", "'-' reads the handoff from stdin, and stdin is a terminal", { hint: "pipe the document in: pbpaste | handoff resume -" });
    bytes = await readStdin(io, SOURCE_LIMIT);
  } else if (selection.kind === "url") {
    const read = await readUrl(selection.url, io, passphrase);
    bytes = read.bytes;
    viewsLeft = read.views_left;
  } else {
    bytes = readRegularFile(selection.path, SOURCE_LIMIT, { what: "the source", label: selection.label });
  }
  if (bytes === "too_large") throw tooLarge(selection.label, SOURCE_LIMIT, "select the handoff itself, not a log or transcript");
  const text = decodeUtf8(bytes, selection.label, "unreadable");
  return viewsLeft === undefined ? { text } : { text, views_left: viewsLeft };
}

async function readUrl(url: string, io: Io, passphrase?: string): Promise<{ bytes: Uint8Array | "too_large"; views_left?: number | null }> {
  const { readShareUrl } = await import("../resume/share-source.js");
  const shared = await readShareUrl(url, io, passphrase === undefined ? {} : { passphrase });
  if (shared !== undefined) return { bytes: shared.plaintext, views_left: shared.views_left };
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
