import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { HandoffMeta } from "../../../shared/api/handoff.js";
import { namedLikeHandoffFile } from "../../../shared/document/sniff.js";
import { MAX_DOCUMENT_BYTES as SOURCE_LIMIT } from "../../../shared/document/size-limits.js";
import { HandoffError } from "../../../shared/errors.js";
import type { RunContext } from "../../lib/run-context.js";
import type { LocalCopyFacts, PassphraseSource } from "../../lib/share-source.js";
import { isHandoffId } from "../../../shared/ids/handoff-id.js";
import { httpRequest } from "../../platform/http.js";
import { decodeUtf8, readRegularFile, tooLarge } from "../../platform/read-file.js";
import type { OrientationResult } from "./orient.js";

/**
 * One explicit source to orient from: a file, '-' (stdin, read by the front end) or a URL (a
 * share link is fetched, decrypted and verified here; any other URL is fetched as a document).
 */

const URL_TIMEOUT_MS = 15_000;

/** Reads stdin up to a byte limit; only a front end has one. */
export type StdinReader = (limit: number) => Promise<Uint8Array | "too_large">;

/** What a source read gave: its text, a share link's views left, the changes bundle it carried, and its local copy. */
export interface SourceText {
  text: string;
  views_left?: number | null;
  changes?: Uint8Array;
  /** A share link's decrypted copy on this machine: read from it (no view spent), or kept by this read. */
  local_copy?: LocalCopyFacts;
}

export type SourceSelection = Exclude<Selection, { kind: "folder" } | { kind: "keywords" }>;

/** What orienting from a share link adds: its views left after this read, and its local copy. */
export interface ShareFacts {
  views_left?: number | null;
  local_copy?: LocalCopyFacts;
}

/** The orientation of a source's text, with the views a share link has left after this read. */
export async function orientSource(selection: SourceSelection, text: SourceText, ctx: RunContext): Promise<OrientationResult & ShareFacts> {
  const { orientFromText } = await import("./orient.js");
  const result = await orientFromText(selection.label, text.text, { cwd: ctx.cwd, env: ctx.env, ...(selection.kind === "file" ? { sourcePath: selection.path } : {}) });
  return { ...result, ...(text.views_left !== undefined ? { views_left: text.views_left } : {}), ...(text.local_copy ? { local_copy: text.local_copy } : {}) };
}

/**
 * Orientation from one explicit source (a file, '-' or a URL), as `handoff resume SOURCE` gives
 * it. A folder or keywords are not a source: discovery is a separate step that selects nothing.
 */
export async function orientFromSource(word: string, ctx: RunContext): Promise<OrientationResult & ShareFacts> {
  // `team:<id>` (what discover with team gives): the entry's link, from its card.
  const teamId = /^team:(.*)$/s.exec(word)?.[1];
  if (teamId !== undefined && isHandoffId(teamId)) {
    const { teamShareUrl } = await import("./team-source.js");
    const url = await teamShareUrl(teamId, ctx);
    if (url === undefined) throw new HandoffError("not_found", `no live team entry ${teamId} on this server`, { hint: "discover the team inbox again; the entry may have expired or been revoked" });
    word = url;
  }
  const selection = classifySource(word, ctx.cwd);
  if (selection.kind === "folder" || selection.kind === "keywords") {
    throw new HandoffError("usage", `'${word}' is ${selection.kind === "folder" ? "a folder" : "not a file or URL"}: orient needs one explicit source`, {
      hint: "discover a shortlist first, and let the user choose one of its paths",
    });
  }
  const text = await readSource(selection, ctx);
  return orientSource(selection, text, ctx);
}

/** `--peek`: a share link's metadata, without spending a view, and its local copy if this machine keeps one. */
export async function peekSource(selection: Selection, ctx: RunContext): Promise<HandoffMeta & { local_copy?: Omit<LocalCopyFacts, "view_spent"> }> {
  if (selection.kind !== "url") throw new HandoffError("usage", "--peek goes with a share URL", { hint: "run 'handoff resume <url> --peek'" });
  const { peekShareUrl } = await import("../../lib/share-source.js");
  return peekShareUrl(selection.url, ctx);
}

export type Selection =
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
export function classifySource(word: string, cwd: string): Selection {
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

/** A source's text; a share link also says how many views it has left after this read, and may carry a changes bundle. */
export async function readSource(selection: SourceSelection, ctx: RunContext, stdin?: StdinReader, passphrase?: PassphraseSource): Promise<SourceText> {
  let bytes: Uint8Array | "too_large";
  let viewsLeft: number | null | undefined;
  let changes: Uint8Array | undefined;
  let local: LocalCopyFacts | undefined;
  if (selection.kind === "stdin") {
    if (stdin === undefined) throw new HandoffError("usage", "'-' reads the handoff from stdin, and stdin is a terminal", { hint: "pipe the document in: pbpaste | handoff resume -" });
    bytes = await stdin(SOURCE_LIMIT);
  } else if (selection.kind === "url") {
    const read = await readUrl(selection.url, ctx, passphrase);
    bytes = read.bytes;
    viewsLeft = read.views_left;
    changes = read.changes;
    local = read.local;
  } else {
    bytes = readRegularFile(selection.path, SOURCE_LIMIT, { what: "the source", label: selection.label });
  }
  if (bytes === "too_large") throw tooLarge(selection.label, SOURCE_LIMIT, "select the handoff itself, not a log or transcript");
  const text = decodeUtf8(bytes, selection.label, "unreadable");
  return { text, ...(viewsLeft === undefined ? {} : { views_left: viewsLeft }), ...(changes ? { changes } : {}), ...(local ? { local_copy: local } : {}) };
}

async function readUrl(
  url: string,
  ctx: RunContext,
  passphrase?: PassphraseSource,
): Promise<{ bytes: Uint8Array | "too_large"; views_left?: number | null; changes?: Uint8Array; local?: LocalCopyFacts }> {
  const { readShareUrl } = await import("../../lib/share-source.js");
  // Resuming keeps the opened link on this machine: reading it again (the preview, the fix, the apply) spends no view.
  const shared = await readShareUrl(url, ctx, passphrase, { keep: true });
  if (shared !== undefined) return { bytes: shared.plaintext, views_left: shared.views_left, ...(shared.changes ? { changes: shared.changes } : {}), ...(shared.local ? { local: shared.local } : {}) };
  let response;
  try {
    response = await httpRequest(url, { timeoutMs: URL_TIMEOUT_MS, maxBytes: SOURCE_LIMIT, headers: { accept: "text/markdown, text/plain, application/json;q=0.9, */*;q=0.1" } });
  } catch (error) {
    if (error instanceof HandoffError && error.reason === "too_large") return { bytes: "too_large" };
    throw error;
  }
  if (response.status !== 200) {
    throw new HandoffError("unreadable", `cannot read ${url}: HTTP ${response.status}`, {
      hint:
        response.status === 404
          ? "check the URL"
          : response.status === 401 || response.status === 403
            ? "the page needs access you do not have; download it and resume from the file"
            : "try again later, or download it and resume from the file",
    });
  }
  return { bytes: response.bytes };
}
