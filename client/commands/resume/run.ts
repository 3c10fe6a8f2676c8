import { statSync } from "node:fs";
import { resolve } from "node:path";
import { HandoffError } from "../../../shared/errors.js";
import type { HandoffMeta } from "../../../shared/api/handoff.js";
import { intFlag } from "../args.js";
import { type HumanOutput, implement } from "../command.js";
import type { resumeSpec } from "./spec.js";
import type { DiscoveryResult } from "../../ops/discover/discover.js";
import { discoverShortlist } from "../../ops/discover/shortlist.js";
import type { OrientationResult } from "../../ops/orient/orient.js";
import { classifySource, orientSource, peekSource, readSource, type Selection } from "../../ops/orient/source.js";
import type { TeamDiscoveryResult } from "../../ops/orient/team-source.js";
import type { PassphraseSource } from "../../lib/share-source.js";
import { readPassphrase } from "../../platform/secret-input.js";
import { isHandoffId } from "../../../shared/ids/handoff-id.js";
import { type Io, readStdin } from "../../platform/io.js";
import type { RunContext } from "../../lib/run-context.js";
import { formatNothingFound, formatOrientation, formatShortlist, formatTeamShortlist } from "./format.js";
import { oneLine } from "../../platform/terminal.js";

export type ResumeResult =
  | ({ kind: "discovery" } & DiscoveryResult)
  | ({ kind: "team" } & TeamDiscoveryResult)
  | ({ kind: "orientation" } & OrientationResult)
  | ({ kind: "peek" } & HandoffMeta);

export const command = implement<typeof resumeSpec>()({
  async run({ flags, positionals, io, ctx }): Promise<ResumeResult> {
    const limit = intFlag("limit", flags.limit, 1, 100) ?? 5;
    const maxCandidates = intFlag("max-candidates", flags["max-candidates"], 1, 1_000_000) ?? 1000;
    if (flags.passphrase && (flags["url-stdin"] || flags.peek || flags.in !== undefined)) {
      throw new HandoffError("usage", "--passphrase reads the passphrase from stdin: it goes with a share URL on the command line, without --url-stdin, --peek or --in", { hint: "printf '%s' \"$PASSPHRASE\" | handoff resume '<url>' --passphrase" });
    }
    if (flags["url-stdin"]) {
      if (positionals.length > 0) {
        throw new HandoffError("usage", "--url-stdin reads the share URL from stdin: pass no SOURCE or keywords with it", { hint: "printf '%s' \"$URL\" | handoff resume --url-stdin" });
      }
      const selection = await urlFromStdin(io);
      if (flags.peek) return { kind: "peek", ...(await peekSource(selection, ctx)) };
      return { kind: "orientation", ...(await orientSource(selection, await readSource(selection, ctx, undefined, askPassphrase(io)), ctx)) };
    }
    if (flags.team) return resumeTeam(positionals, limit, Boolean(flags.in !== undefined || flags.peek || flags.passphrase), io, ctx);
    const [first, ...rest] = positionals;
    let boundary = flags.in === undefined ? undefined : folder(resolve(ctx.cwd, flags.in), "--in");
    let keywords = positionals;
    if (first !== undefined && flags.in === undefined) {
      const selection = classifySource(first, ctx.cwd);
      if (selection.kind === "folder") {
        boundary = selection.path;
        keywords = rest;
      } else if (selection.kind !== "keywords") {
        if (flags.peek) return { kind: "peek", ...(await peekSource(selection, ctx)) };
        if (rest.length > 0) throw new HandoffError("usage", "a SOURCE is resumed alone: extra words after it are not keywords", { hint: `run 'handoff resume ${first}'` });
        if (flags.passphrase && selection.kind !== "url") throw new HandoffError("usage", "--passphrase goes with a share URL", { hint: "printf '%s' \"$PASSPHRASE\" | handoff resume '<url>' --passphrase" });
        const stdin = io.stdinIsTTY ? undefined : (limit: number) => readStdin(io, limit);
        const passphrase: PassphraseSource = flags.passphrase ? { given: await readPassphrase(io, { confirm: false }) } : askPassphrase(io);
        return { kind: "orientation", ...(await orientSource(selection, await readSource(selection, ctx, stdin, passphrase), ctx)) };
      }
    }
    if (flags.peek) throw new HandoffError("usage", "--peek goes with a share URL", { hint: "run 'handoff resume <url> --peek'" });
    if (flags.passphrase) throw new HandoffError("usage", "--passphrase goes with a share URL", { hint: "printf '%s' \"$PASSPHRASE\" | handoff resume '<url>' --passphrase" });
    const result = await discoverShortlist({ boundary, keywords, limit, maxCandidates }, ctx);
    return { kind: "discovery", ...result };
  },
  human(result, { color }): HumanOutput {
    if (result.kind === "peek") {
      const views = result.views_left === null ? "unlimited views" : `${result.views_left} of ${result.max_views} views left`;
      return { out: oneLine(`${result.id}: scope ${result.scope}, ${views}, expires ${result.expires_at}, ${result.size} bytes${result.passphrase ? ", needs a passphrase" : ""} (no view was spent)`) };
    }
    if (result.kind === "team") {
      const warnings = result.warnings.map((w) => `warning: ${oneLine(w)}`);
      if (result.candidates.length === 0) {
        const why = result.unreadable.length > 0 ? ` (${result.unreadable.length} live entr${result.unreadable.length === 1 ? "y has" : "ies have"} no card this machine can open: 'handoff team' lists them)` : "";
        return { err: [...warnings, oneLine(`No team handoff found on ${result.server}${result.filters.keywords.length > 0 ? ` matching ${result.filters.keywords.map((k) => `'${k}'`).join(", ")}` : ""}${why}.`)].join("\n") };
      }
      return { out: formatTeamShortlist(result), ...(warnings.length > 0 ? { err: warnings.join("\n") } : {}) };
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

/**
 * On a terminal, a passphrase link's passphrase is asked for once the server says it needs one
 * (no view is spent by the refused read); off a terminal the error says to pass --passphrase.
 */
function askPassphrase(io: Io): PassphraseSource {
  if (!io.stdinIsTTY) return {};
  return {
    ask: () => {
      io.err("This share link needs a passphrase (no view was spent).");
      return readPassphrase(io, { confirm: false });
    },
  };
}

/**
 * `resume --team [KEYWORDS...]`: the team inbox's shortlist; `resume --team ID` with the id of a
 * live entry resumes it (one view), through its card's share key.
 */
async function resumeTeam(positionals: string[], limit: number, otherSource: boolean, io: Io, ctx: RunContext): Promise<ResumeResult> {
  if (otherSource) throw new HandoffError("usage", "--team searches the team inbox: it goes without --in, --peek or --passphrase", { hint: "run 'handoff resume --team [KEYWORDS...]'" });
  const team = await import("../../ops/orient/team-source.js");
  const [only] = positionals;
  if (positionals.length === 1 && only !== undefined && isHandoffId(only)) {
    const url = await team.teamShareUrl(only, ctx);
    if (url !== undefined) {
      const selection = { kind: "url" as const, url, label: url.replace(/#.*$/s, "") };
      return { kind: "orientation", ...(await orientSource(selection, await readSource(selection, ctx, undefined, askPassphrase(io)), ctx)) };
    }
  }
  return { kind: "team", ...(await team.discoverTeam({ keywords: positionals, limit }, ctx)) };
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

function folder(path: string, flag: string): string {
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new HandoffError("usage", `${flag} ${path} is not a folder`, { hint: "pass an existing folder to search" });
  }
  return path;
}
