import { statSync } from "node:fs";
import { resolve } from "node:path";
import { EXIT, HandoffError } from "../../shared/errors.js";
import { intFlag, parseCommandArgs } from "../args.js";
import { type DiscoveryResult, discoverHandoffs } from "../discover/discover.js";
import { captureGitIdentity } from "../git.js";
import { httpRequest } from "../http.js";
import { type Io, readStdin } from "../io.js";
import { formatNothingFound, formatShortlist } from "../resume/format.js";
import type { OrientationResult } from "../resume/orient.js";
import { managedRoots } from "../store.js";
import { decodeUtf8, readRegularFile, tooLarge } from "../read-file.js";
import { safeLineForTerminal, stringifyForTerminal } from "../../shared/terminal-safe.js";

export const help = `Usage: handoff resume [SOURCE | FOLDER | KEYWORDS...] [options]

With a SOURCE (a file of any format or author, '-' for stdin, or an http(s) URL): read it and
print an orientation: objective, progress, decisions, current state, unfinished work, whether
it is enough to resume from, and drift against the current checkout. The source's text is shown
fenced as untrusted data. Nothing is executed, written or marked consumed.

Without a source: search the managed store (or FOLDER / --in DIR) and print a shortlist of
likely handoffs with match reasons. Nothing is selected: resume again with the one you choose.

Options:
  --in DIR               Search this folder instead of the managed store.
  --limit N              Shortlist length (default 5).
  --max-candidates N     Files considered per folder, most recent first (default 1000).
  --url-stdin            Read one share URL from stdin instead of the command line, so its
                         #key never shows in the process list (ps): printf '%s' "$URL" |
                         handoff resume --url-stdin. Works with --peek.
  --peek                 With a share URL: show its metadata (expiry, views left) without
                         spending a view.
  --json                 Print the result object (discovery or orientation) on stdout.

Exit codes: 0 shortlist or orientation; 1 nothing matched, source insufficient, or hard
divergence (another repository, or the recorded commit is not in this history); 2 usage;
3 source unreadable (missing, permission, not a regular file, too large, HTTP error).
`;

/** A handoff is a small document; the cap keeps a wrong selection from flooding the session. */
export const SOURCE_LIMIT = 1024 * 1024;
const URL_TIMEOUT_MS = 15_000;

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("resume", args, {
    in: { type: "string" },
    limit: { type: "string" },
    "max-candidates": { type: "string" },
    peek: { type: "boolean" },
    "url-stdin": { type: "boolean" },
  });
  const limit = intFlag("limit", values.limit, 1, 100) ?? 5;
  const maxCandidates = intFlag("max-candidates", values["max-candidates"], 1, 1_000_000) ?? 1000;
  const json = Boolean(values.json);

  if (values["url-stdin"]) {
    if (positionals.length > 0 || values.in !== undefined) throw new HandoffError("usage", "--url-stdin reads the share URL from stdin: pass no SOURCE, keywords or --in with it", { hint: "printf '%s' \"$URL\" | handoff resume --url-stdin" });
    const selection = await urlFromStdin(io);
    if (values.peek) return peek(selection, io, json);
    return printOrientation(await orientSelection(selection, io), io, json);
  }
  const [first, ...rest] = positionals;
  let boundary = values.in === undefined ? undefined : folder(resolve(io.cwd, values.in), "--in");
  let keywords = positionals;
  if (first !== undefined && values.in === undefined) {
    const selection = classify(first, io.cwd);
    if (selection.kind === "folder") {
      boundary = selection.path;
      keywords = rest;
    } else if (selection.kind !== "keywords") {
      if (values.peek) return peek(selection, io, json);
      if (rest.length > 0) throw new HandoffError("usage", "a SOURCE is resumed alone: extra words after it are not keywords", { hint: `run 'handoff resume ${first}'` });
      return printOrientation(await orientSelection(selection, io), io, json);
    }
  }

  const result = await discoverShortlist({ ...(boundary === undefined ? {} : { boundary }), keywords, limit, maxCandidates }, io);
  for (const warning of result.warnings) io.err(`warning: ${safeLineForTerminal(warning)}`);
  if (json) io.out(stringifyForTerminal(result));
  if (result.candidates.length === 0) {
    io.err(formatNothingFound(result));
    return EXIT.domain;
  }
  if (!json) io.out(formatShortlist(result));
  return EXIT.ok;
}

/**
 * Discovery without a source: a shortlist of likely handoffs in `boundary` (else the managed
 * roots). It never selects one (`selected: null`). Shared by the command and the MCP server.
 */
export async function discoverShortlist(options: { boundary?: string; keywords: string[]; limit: number; maxCandidates: number }, io: Io): Promise<DiscoveryResult> {
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
  return orientSelection(selection, io);
}

async function orientSelection(selection: Exclude<Selection, { kind: "folder" } | { kind: "keywords" }>, io: Io): Promise<OrientationResult> {
  const text = await readSource(selection, io);
  const { orientFromText } = await import("../resume/orient.js");
  return orientFromText(selection.label, text, { cwd: io.cwd, env: io.env, ...(selection.kind === "file" ? { sourcePath: selection.path } : {}) });
}

async function peek(selection: Selection, io: Io, json: boolean): Promise<number> {
  if (selection.kind !== "url") throw new HandoffError("usage", "--peek goes with a share URL", { hint: "run 'handoff resume <url> --peek'" });
  const { peekShareUrl } = await import("../resume/share-source.js");
  const meta = await peekShareUrl(selection.url, io);
  if (json) io.out(stringifyForTerminal(meta));
  else {
    const views = meta.views_left === null ? "unlimited views" : `${meta.views_left} of ${meta.max_views} views left`;
    io.out(safeLineForTerminal(`${meta.id}: scope ${meta.scope}, ${views}, expires ${meta.expires_at}, ${meta.size} bytes (no view was spent)`));
  }
  return EXIT.ok;
}

export async function printOrientation(result: OrientationResult, io: Io, json: boolean): Promise<number> {
  const { formatOrientation } = await import("../resume/format.js");
  io.out(json ? stringifyForTerminal(result) : formatOrientation(result));
  return result.sufficient && !result.hard_divergence ? EXIT.ok : EXIT.domain;
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
  if (/[\\/]/.test(word) || /\.(md|markdown|txt|json)$/i.test(word)) {
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

async function readSource(selection: Exclude<Selection, { kind: "folder" } | { kind: "keywords" }>, io: Io): Promise<string> {
  let bytes: Uint8Array | "too_large";
  if (selection.kind === "stdin") {
    if (io.stdinIsTTY) throw new HandoffError("usage", "'-' reads the handoff from stdin, and stdin is a terminal", { hint: "pipe the document in: pbpaste | handoff resume -" });
    bytes = await readStdin(io, SOURCE_LIMIT);
  } else if (selection.kind === "url") {
    bytes = await readUrl(selection.url, io);
  } else {
    bytes = readRegularFile(selection.path, SOURCE_LIMIT, { what: "the source", label: selection.label });
  }
  if (bytes === "too_large") throw tooLarge(selection.label, SOURCE_LIMIT, "select the handoff itself, not a log or transcript");
  return decodeUtf8(bytes, selection.label, "unreadable");
}

async function readUrl(url: string, io: Io): Promise<Uint8Array | "too_large"> {
  const { readShareUrl } = await import("../resume/share-source.js");
  const shared = await readShareUrl(url, io);
  if (shared !== undefined) return shared;
  let response;
  try {
    response = await httpRequest(url, { timeoutMs: URL_TIMEOUT_MS, maxBytes: SOURCE_LIMIT, headers: { accept: "text/markdown, text/plain, application/json;q=0.9, */*;q=0.1" } });
  } catch (error) {
    if (error instanceof HandoffError && error.reason === "too_large") return "too_large";
    throw error;
  }
  if (response.status !== 200) {
    throw new HandoffError("unreadable", `cannot read ${url}: HTTP ${response.status}`, {
      hint: response.status === 404 ? "check the URL" : response.status === 401 || response.status === 403 ? "the page needs access you do not have; download it and resume from the file" : "try again later, or download it and resume from the file",
    });
  }
  return response.bytes;
}
