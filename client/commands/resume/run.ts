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
import type { RunContext } from "../../lib/run-context.js";
import type { PassphraseSource } from "../../lib/share-source.js";
import { type ApplyRequest, type ChangesFacts, sourceChanges } from "../../ops/orient/changes.js";
import { classifySource, orientSource, peekSource, readSource, type ShareFacts, type SourceSelection } from "../../ops/orient/source.js";
import type { TeamDiscoveryResult } from "../../ops/orient/team-source.js";
import { readPassphrase } from "../secret-input.js";
import { type Io, readStdin } from "../../platform/io.js";
import { shellQuote } from "../../../shared/ce/resume-command.js";
import { isHandoffId } from "../../../shared/ids/handoff-id.js";
import { askPassphrase, urlAndPassphraseFromStdin, urlFromPrompt, urlFromStdin } from "../url-input.js";
import { formatNothingFound, formatOrientation, formatShortlist, formatTeamShortlist, viewsLine } from "./format.js";
import { oneLine } from "../../platform/terminal.js";

/** How a script gives a passphrase link and its passphrase, neither on the command line. */
const PASSPHRASE_EXAMPLE = 'printf \'%s\\n%s\' "$URL" "$PASSPHRASE" | handoff resume --url-stdin --passphrase';

export type ResumeResult =
  | ({ kind: "discovery" } & DiscoveryResult)
  | ({ kind: "team" } & TeamDiscoveryResult)
  | ({ kind: "orientation" } & OrientationResult & ShareFacts & ChangesFacts)
  | ({ kind: "peek" } & HandoffMeta & { local_copy?: { path: string; opened_at: string; keep_until: string } });

export const command = implement<typeof resumeSpec>()({
  async run({ flags, positionals, io, ctx }): Promise<ResumeResult> {
    const limit = intFlag("limit", flags.limit, 1, 100) ?? 5;
    const maxCandidates = intFlag("max-candidates", flags["max-candidates"], 1, 1_000_000) ?? 1000;
    if (flags.passphrase && (flags.peek || flags.in !== undefined)) {
      throw new HandoffError("usage", "--passphrase reads the passphrase from stdin: it goes with a share URL, without --peek or --in", { hint: PASSPHRASE_EXAMPLE });
    }
    if (flags["url-stdin"]) {
      if (positionals.length > 0) {
        throw new HandoffError("usage", "--url-stdin reads the share URL from stdin: pass no SOURCE or keywords with it", { hint: "printf '%s' \"$URL\" | handoff resume --url-stdin" });
      }
      if (flags.passphrase) {
        const { passphrase, ...input } = await urlAndPassphraseFromStdin(io, "resume");
        return orientation({ kind: "url", ...input }, "handoff resume --url-stdin", applyRequest(flags), io, ctx, { given: passphrase });
      }
      const selection = { kind: "url" as const, ...(await urlFromStdin(io, "resume")) };
      if (flags.peek) return { kind: "peek", ...(await peekSource(selection, ctx)) };
      return orientation(selection, "handoff resume --url-stdin", applyRequest(flags), io, ctx, askPassphrase(io));
    }
    if (flags.paste) {
      if (positionals.length > 0) {
        throw new HandoffError("usage", "--paste asks for the share URL: pass no SOURCE or keywords with it", { hint: "handoff resume --paste" });
      }
      const selection = { kind: "url" as const, ...(await urlFromPrompt(io, "resume")) };
      if (flags.peek) return { kind: "peek", ...(await peekSource(selection, ctx)) };
      const passphrase: PassphraseSource = flags.passphrase ? { given: await readPassphrase(io, { confirm: false }) } : askPassphrase(io);
      return orientation(selection, "handoff resume --paste", applyRequest(flags), io, ctx, passphrase);
    }
    if (flags.team) return resumeTeam(positionals, limit, Boolean(flags.in !== undefined || flags.peek || flags.passphrase), applyRequest(flags), io, ctx);
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
        if (flags.passphrase && selection.kind !== "url") throw new HandoffError("usage", "--passphrase goes with a share URL", { hint: PASSPHRASE_EXAMPLE });
        const passphrase: PassphraseSource = flags.passphrase ? { given: await readPassphrase(io, { confirm: false }) } : askPassphrase(io);
        const again = selection.kind === "url" ? "handoff resume --paste" : selection.kind === "file" ? `handoff resume ${shellQuote(selection.path)}` : "handoff resume -";
        return orientation(selection, again, applyRequest(flags), io, ctx, passphrase);
      }
    }
    if (flags["apply-changes"]) throw new HandoffError("usage", "--apply-changes goes with a SOURCE that carries a changes bundle", { hint: "run 'handoff resume <file-or-url> --apply-changes'" });
    if (flags.peek) throw new HandoffError("usage", "--peek goes with a share URL", { hint: "run 'handoff resume <url> --peek'" });
    if (flags.passphrase) throw new HandoffError("usage", "--passphrase goes with a share URL", { hint: PASSPHRASE_EXAMPLE });
    const result = await discoverShortlist({ boundary, keywords, limit, maxCandidates }, ctx);
    return { kind: "discovery", ...result };
  },
  human(result, { color }): HumanOutput {
    if (result.kind === "peek") {
      const views = result.views_left === null ? "unlimited views" : `${result.views_left} of ${result.max_views} views left`;
      const kept = result.local_copy ? `; a decrypted copy is kept on this machine until ${result.local_copy.keep_until}: resuming it spends no view` : "";
      return {
        out: oneLine(`${result.id}: scope ${result.scope}, ${views}, expires ${result.expires_at}, ${result.size} bytes${result.passphrase ? ", needs a passphrase" : ""} (no view was spent)${kept}`),
      };
    }
    if (result.kind === "team") {
      const warnings = result.warnings.map((w) => `warning: ${oneLine(w)}`);
      if (result.candidates.length === 0) {
        const why =
          result.unreadable.length > 0
            ? ` (${result.unreadable.length} live entr${result.unreadable.length === 1 ? "y has" : "ies have"} no card this machine can open: 'handoff team' lists them)`
            : "";
        return {
          err: [
            ...warnings,
            oneLine(`No team handoff found on ${result.server}${result.filters.keywords.length > 0 ? ` matching ${result.filters.keywords.map((k) => `'${k}'`).join(", ")}` : ""}${why}.`),
          ].join("\n"),
        };
      }
      return { out: formatTeamShortlist(result), ...(warnings.length > 0 ? { err: warnings.join("\n") } : {}) };
    }
    if (result.kind === "orientation") {
      const left = viewsLine(result);
      // A dry run that would not apply yet says why and what to run first, as a note: it did its job.
      const stopped = result.changes_not_applied ?? result.changes_preview?.blocked;
      const label = result.changes_not_applied ? "error" : "note";
      const notApplied = stopped ? `${label}: ${oneLine(stopped.message)}${stopped.hint ? `\n  hint: ${oneLine(stopped.hint)}` : ""}` : undefined;
      const err = [left, notApplied].filter((line) => line !== undefined).join("\n");
      return { out: formatOrientation(result, color), ...(err ? { err } : {}) };
    }
    const warnings = result.warnings.map((w) => `warning: ${oneLine(w)}`);
    const { overBound } = result.searched.skipped;
    if (overBound > 0) {
      warnings.push(
        `note: ${overBound} older file${overBound === 1 ? " was" : "s were"} not considered (--max-candidates ${result.filters.max_candidates} per folder, most recent first); raise --max-candidates to search them`,
      );
    }
    if (result.searched.truncated) warnings.push("note: the folder walk stopped at its entry limit; some files were not seen");
    if (result.candidates.length === 0) return { err: [...warnings, formatNothingFound(result)].join("\n") };
    return { ...(warnings.length > 0 ? { err: warnings.join("\n") } : {}), out: formatShortlist(result) };
  },
  json: ({ kind: _kind, ...result }) => result,
  outcome(result) {
    if (result.kind === "peek") return "ok";
    if (result.kind === "discovery" || result.kind === "team") return result.candidates.length === 0 ? "nothing_found" : "ok";
    if (result.hard_divergence || result.changes_not_applied) return "diverged";
    return result.sufficient ? "ok" : "insufficient";
  },
});

/**
 * Orientation from one selected source, with what its changes bundle holds and, with `apply`,
 * the bundle applied (or why not: the orientation is still returned, since reading a share
 * link spent a view).
 */
async function orientation(selection: SourceSelection, again: string, apply: ApplyRequest, io: Io, ctx: RunContext, passphrase: PassphraseSource = {}): Promise<ResumeResult> {
  const stdin = io.stdinIsTTY ? undefined : (limit: number) => readStdin(io, limit);
  const text = await readSource(selection, ctx, stdin, passphrase);
  const result = await orientSource(selection, text, ctx);
  const facts = await sourceChanges(selection, text, again, apply, result.drift, ctx);
  return { kind: "orientation", ...result, ...facts };
}

/** --apply-changes and the two flags that require it (the spec says so). */
function applyRequest(flags: { "apply-changes"?: boolean; "dry-run"?: boolean; "allow-flagged"?: boolean }): ApplyRequest {
  return { apply: flags["apply-changes"] === true, dryRun: flags["dry-run"] === true, allowFlagged: flags["allow-flagged"] === true };
}

/**
 * `resume --team [KEYWORDS...]`: the team inbox's shortlist; `resume --team ID` with the id of a
 * live entry resumes it (one view), through its card's share key.
 */
async function resumeTeam(positionals: string[], limit: number, otherSource: boolean, apply: ApplyRequest, io: Io, ctx: RunContext): Promise<ResumeResult> {
  if (otherSource) throw new HandoffError("usage", "--team searches the team inbox: it goes without --in, --peek or --passphrase", { hint: "run 'handoff resume --team [KEYWORDS...]'" });
  const team = await import("../../ops/orient/team-source.js");
  const [only] = positionals;
  if (positionals.length === 1 && only !== undefined && isHandoffId(only)) {
    const url = await team.teamShareUrl(only, ctx);
    if (url !== undefined) {
      const selection = { kind: "url" as const, url, label: url.replace(/#.*$/s, "") };
      return orientation(selection, `handoff resume --team ${only}`, apply, io, ctx, askPassphrase(io));
    }
  }
  if (apply.apply)
    throw new HandoffError("usage", "--apply-changes goes with one team entry: pass its id", { hint: "run 'handoff resume --team ID --apply-changes' with an id from 'handoff resume --team'" });
  return { kind: "team", ...(await team.discoverTeam({ keywords: positionals, limit }, ctx)) };
}

function folder(path: string, flag: string): string {
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new HandoffError("usage", `${flag} ${path} is not a folder`, { hint: "pass an existing folder to search" });
  }
  return path;
}
