import { realpath, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { SelectorResolver } from "../../shared/context/compile.js";
import { type ContextSelector, estimateTokens, type Piece, resolveSelector, type SelectorSource, selectorSummary } from "../../shared/context/selector.js";
import { HandoffError, isHandoffError } from "../../shared/errors.js";
import { readRegularFile } from "../platform/read-file.js";
import { runGit as runGitCommand } from "../platform/git.js";
import type { Env } from "../platform/env.js";
import { repoRelative } from "../platform/paths.js";
import { workTreeRoot } from "../platform/work-tree.js";

/**
 * The I/O behind `handoff context`: where the repository is, and what a selector reads in it.
 * Every read stays inside the repository's real folder, never touches a forbidden path, opens
 * regular files only (non-blocking, so a FIFO never hangs) and is capped; git runs read-only.
 */

/** A selected file or diff larger than this is left out with a note, never cut silently. */
export const CONTEXT_FILE_CAP = 4 * 1024 * 1024;

function runGit(args: string[], cwd: string, env: Env, maxBytes: number) {
  return runGitCommand(args, { cwd, env, maxBytes });
}

/**
 * The repository root selectors resolve in: `--repo DIR` as given, else the git toplevel of the
 * manifest's folder, else of `cwd`. Returned with symlinks resolved, so containment checks
 * compare real paths.
 */
export async function findRepositoryRoot(options: { manifestPath: string; cwd: string; repo?: string; env: Env }): Promise<string> {
  if (options.repo !== undefined) {
    const dir = resolve(options.cwd, options.repo);
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new HandoffError("unreadable", `--repo ${options.repo} is not a folder`, { hint: "pass the repository's top folder" });
    }
    return realpath(dir);
  }
  const root = workTreeRoot(dirname(resolve(options.cwd, options.manifestPath)), options.env) ?? workTreeRoot(options.cwd, options.env);
  if (root === undefined) {
    throw new HandoffError("usage", "no repository: neither the manifest's folder nor the current folder is inside a git checkout", {
      hint: "run it inside the repository, or pass --repo DIR",
    });
  }
  return root;
}

export interface ReaderOptions {
  /** The repository root, symlinks resolved. */
  root: string;
  forbidden: readonly string[];
  /** Whether a repository-relative path matches a forbidden glob (the one compile uses). */
  isForbidden(path: string): boolean;
  env: Env;
}

/**
 * The resolver compileContext calls for each selector it lets through (compile has already
 * refused malformed, `..` and forbidden selectors, so this never sees them).
 */
export function selectorReader(options: ReaderOptions): SelectorResolver {
  return async (selector) => {
    if (selector.git_diff !== undefined) return resolveSelector(selector, await readDiff(selector.git_diff, options));
    const found = await readSelectedFile(selector.path ?? "", options);
    return "invalid" in found ? invalidPiece(selector, found.invalid) : resolveSelector(selector, found);
  };
}

function invalidPiece(selector: ContextSelector, note: string): Piece {
  return { selector: selectorSummary(selector), reason: selector.reason ?? "", text: "", estimated_tokens: 0, outcome: "invalid", note };
}

const within = repoRelative;

async function readSelectedFile(path: string, options: ReaderOptions): Promise<SelectorSource | { invalid: string }> {
  const lexical = join(options.root, path);
  if (within(options.root, lexical) === undefined) return { invalid: "path escapes the repository" };
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "ELOOP" ? "a symlink loop" : code === "ENOTDIR" ? "a part of the path is not a folder" : `not readable (${code ?? cause})`;
    return { missing: true, note: why };
  }
  const realRel = within(options.root, real);
  if (realRel === undefined) return { invalid: "path escapes the repository through a symlink" };
  // A symlink inside the repository may still lead to a forbidden file.
  if (options.isForbidden(realRel)) return { invalid: `forbidden: the path leads to ${realRel}` };
  let bytes: Uint8Array | "too_large";
  try {
    // The real path has no symlinks left; O_NOFOLLOW keeps one from being swapped in.
    bytes = readRegularFile(real, CONTEXT_FILE_CAP, { what: "file", noFollow: true });
  } catch (error) {
    if (!isHandoffError(error)) throw error;
    const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return { missing: true, note: code === undefined ? "not a regular file" : `not readable (${code})` };
  }
  if (bytes === "too_large") return { missing: true, note: `larger than the ${CONTEXT_FILE_CAP / 1024 / 1024} MiB per-file cap: not read` };
  if (bytes.includes(0)) return { missing: true, note: "a binary file: left out" };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { missing: true, note: "not UTF-8 text: left out" };
  }
}

/**
 * `git diff` over the manifest's revisions, read-only, with forbidden globs excluded as
 * pathspecs (a glob and everything below it, as the compile's guard matches). The revision text
 * passed the schema's rules and still goes after --end-of-options, so it is never an option.
 */
async function readDiff(range: string, options: ReaderOptions): Promise<SelectorSource> {
  const excludes = options.forbidden.filter((glob) => glob !== "").flatMap((glob) => [`:(exclude,glob)${glob}`, `:(exclude,glob)${glob}/**`]);
  // A diff against the working tree would consult core.fsmonitor and run clean filters, commands
  // the repository's own config names; runGit switches them off, so this read runs nothing the
  // repository chose.
  const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--end-of-options", range, "--", ".", ...excludes];
  const run = await runGit(args, options.root, options.env, CONTEXT_FILE_CAP);
  if (run.overflow) return { note: `the diff is larger than the ${CONTEXT_FILE_CAP / 1024 / 1024} MiB cap: not included` };
  if (run.failure !== undefined) return { note: `git diff failed: ${run.failure}` };
  return { diff: run.stdout.replace(/\n$/, "") };
}

/** The files kernel's reference counts as project instructions, in its order. */
export const PROJECT_INSTRUCTION_FILES = ["CLAUDE.md", ".claude/CLAUDE.md", "AGENTS.md"] as const;

/**
 * Tokens of the project instructions a resumed session loads anyway, counted as kernel's
 * reference counts them: each file that exists at the repository root, the same text once
 * (CLAUDE.md and AGENTS.md are often one file linked twice), line endings read as "\n".
 */
export function projectInstructionsTokens(root: string): number {
  const seen = new Set<string>();
  let total = 0;
  for (const name of PROJECT_INSTRUCTION_FILES) {
    let text: string;
    try {
      const bytes = readRegularFile(join(root, name), CONTEXT_FILE_CAP, { what: "project instructions" });
      if (bytes === "too_large") continue;
      text = new TextDecoder("utf-8").decode(bytes).replace(/\r\n?/g, "\n");
    } catch {
      continue;
    }
    if (seen.has(text)) continue;
    seen.add(text);
    total += estimateTokens(text);
  }
  return total;
}
