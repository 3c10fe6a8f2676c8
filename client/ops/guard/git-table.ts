import { isAbsolute, join, normalize } from "node:path";
import {
  type Effect,
  copyEffects,
  configEffects,
  GREP_VALUED,
  grepEffects,
  lineRangeFiles,
  notesEffects,
  optionFiles,
  revsAndPathspecs,
  split,
  stashEffects,
  VALUED,
  worktreeEffects,
} from "./git-words.js";
import { GIT_BUILTINS } from "./programs.js";
import { COMPUTED } from "./shell-expand.js";

export type { Effect };

/**
 * git, in one table: what each subcommand and flag prints (file contents, names only, or
 * nothing), what it copies, and which settings make git run a program. A git command line is
 * parsed here into its global options, its subcommand (aliases resolved) and one Effect per thing
 * it can print; git-reads.ts asks git (read-only) which paths each Effect covers.
 */

export interface GitInvocation {
  /** Global options that choose the repository and the pathspec mode, repeated on every git the guard runs. */
  globals: string[];
  /** Where git runs (`-C` applied), or undefined when only run time knows. */
  dir: string | undefined;
  /** `--git-dir`, `--work-tree`, GIT_DIR, GIT_WORK_TREE, as absolute paths. */
  gitDir?: string;
  workTree?: string;
  /** `-c key=value` settings, in order. */
  configs: { key: string; value: string }[];
  sub: string;
  /** The words after the subcommand; COMPUTED marks text only run time knows. */
  words: string[];
}

const GLOBAL_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path", "--super-prefix", "--attr-source", "--list-cmds"]);
const PATHSPEC_MODES = new Set(["--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--bare"]);

/** Splits `git ARGS` into an invocation, or says why the guard cannot follow it. */
export function parseGit(args: string[], cwd: string | undefined, env: Record<string, string>): GitInvocation | string {
  const invocation: GitInvocation = { globals: [], dir: cwd, configs: [], sub: "", words: [] };
  if (env.GIT_DIR !== undefined) invocation.gitDir = resolveFrom(cwd, env.GIT_DIR);
  if (env.GIT_WORK_TREE !== undefined) invocation.workTree = resolveFrom(cwd, env.GIT_WORK_TREE);
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (!word.startsWith("-")) break;
    const eq = word.indexOf("=");
    const name = word.startsWith("--") && eq > 0 ? word.slice(0, eq) : word;
    const value = () => (name === word ? args[++i] : word.slice(eq + 1)) ?? "";
    if (name === "-C") {
      const dir = value();
      invocation.dir = dir.includes(COMPUTED) ? undefined : resolveFrom(invocation.dir, dir);
    } else if (name === "-c") {
      const setting = value();
      const at = setting.indexOf("=");
      invocation.configs.push({ key: (at < 0 ? setting : setting.slice(0, at)).toLowerCase(), value: at < 0 ? "true" : setting.slice(at + 1) });
    } else if (name === "--config-env") {
      const setting = value();
      invocation.configs.push({ key: setting.slice(0, Math.max(0, setting.indexOf("="))).toLowerCase(), value: COMPUTED });
    } else if (name === "--git-dir") invocation.gitDir = resolveFrom(invocation.dir, value());
    else if (name === "--work-tree") invocation.workTree = resolveFrom(invocation.dir, value());
    else if (name === "--exec-path" && eq > 0) return "'git --exec-path=DIR' runs git's commands from another folder";
    else if (PATHSPEC_MODES.has(name)) invocation.globals.push(name);
    else if (GLOBAL_VALUED.has(name)) value();
  }
  if (invocation.gitDir !== undefined) invocation.globals.push(`--git-dir=${invocation.gitDir}`);
  if (invocation.workTree !== undefined) invocation.globals.push(`--work-tree=${invocation.workTree}`);
  for (const variable of ["GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS"]) {
    if (env[variable] !== undefined && env[variable] !== "0") invocation.globals.push(`--${variable.slice(4, -10).toLowerCase()}-pathspecs`);
  }
  invocation.sub = args[i] ?? "";
  invocation.words = args.slice(i + 1);
  return invocation;
}

/** Whether the subcommand is git's own (else an alias or an external `git-NAME`). */
export function isBuiltin(sub: string): boolean {
  return GIT_BUILTINS.has(sub) || sub === "";
}

const NAMES_ONLY = /^(?:--stat(?:=.*)?|--numstat|--shortstat|--name-only|--name-status|--summary|--dirstat(?:=.*)?|--raw|--compact-summary|-s|--no-patch|--quiet|--oneline)$/;
const PATCH =
  /^(?:-p|-u|--patch|--patch-with-stat|--patch-with-raw|-U\d*|--unified(?:=.*)?|--word-diff(?:=.*)?|--color-words(?:=.*)?|-c|--cc|-m|--dd|--diff-merges=.*|--combined-all-paths|--binary|-W|--function-context|--full-index|--check|--remerge-diff|--ext-diff|--textconv)$/;
/** History options that make log answer a question about contents (`-S secret` says whether a commit adds it). */
const ORACLE = /^(?:-[GS].*|--pickaxe-regex|--pickaxe-all|--find-object(?:=.*)?)$/;
const REV_OPTIONS =
  /^(?:--all|--branches(?:=.*)?|--tags(?:=.*)?|--remotes(?:=.*)?|--glob=.*|--exclude=.*|--reflog|--not|-g|--walk-reflogs|--bisect|--alternate-refs|--exclude-hidden=.*|--root|--first-parent)$/;

/**
 * What one git subcommand prints, copies or runs: the table. `exists` says whether a word names
 * a path relative to git's folder (git's own rev-or-path rule without `--`).
 */
export function effectsOf(invocation: GitInvocation, exists: (word: string) => boolean): Effect[] {
  const { sub, words } = invocation;
  const parts = split(words, sub === "grep" ? GREP_VALUED : VALUED);
  const has = (pattern: RegExp) => parts.options.some((option) => pattern.test(option));
  const patch = has(PATCH);
  const names = has(NAMES_ONLY);
  const fileOptions = optionFiles(words);
  const withFiles = (effects: Effect[]): Effect[] => (fileOptions.length > 0 ? [{ kind: "files", paths: fileOptions }, ...effects] : effects);
  const { revs, pathspecs } = revsAndPathspecs(parts, exists);
  const lineRanges = lineRangeFiles(words);
  switch (sub) {
    case "diff":
    case "difftool": {
      if (parts.options.includes("--no-index")) return [{ kind: "files", paths: parts.dash ? parts.after : parts.positionals }];
      if (sub === "diff" && names && !patch) return withFiles([{ kind: "none" }]);
      const sides = parts.options.filter((option) => /^(?:--cached|--staged|--merge-base|-R)$/.test(option));
      return withFiles([{ kind: "diff", command: ["diff", ...sides, ...revs], pathspecs }]);
    }
    case "diff-index":
    case "diff-files":
    case "diff-tree": {
      if (!patch) return [{ kind: "none" }];
      const flags = parts.options.filter((option) => /^(?:--cached|-m|--root|-c|--cc|-R)$/.test(option));
      const command = sub === "diff-tree" ? ["diff-tree", "-r", "-m", "--root", "--no-commit-id", ...revs] : [sub, ...flags, ...revs];
      if (parts.options.includes("--stdin")) return [{ kind: "refuse", reason: `'git ${sub} --stdin' prints the patches of commits it reads at run time` }];
      return [{ kind: "diff", command, pathspecs }];
    }
    case "log":
    case "whatchanged":
    case "reflog":
    case "show-branch": {
      const history = patch || has(ORACLE) || (sub === "whatchanged" && !names && patch);
      const effects: Effect[] = lineRanges.length > 0 ? [{ kind: "files", paths: lineRanges }] : [];
      if (!history) return withFiles(effects.length > 0 ? effects : [{ kind: "none" }]);
      const reflog = sub === "reflog" ? ["-g", ...(revs.filter((rev) => !/^(?:show|expire|delete|exists)$/.test(rev)).length > 0 ? [] : ["HEAD"])] : [];
      const selectors = parts.options.filter((option) => REV_OPTIONS.test(option));
      return withFiles([
        ...effects,
        { kind: "history", revs: [...reflog, ...selectors, ...revs.filter((rev) => !(sub === "reflog" && rev === "show"))], pathspecs, follow: parts.options.includes("--follow") },
      ]);
    }
    case "show": {
      const objects = revs.filter((rev) => rev.includes(":") && !rev.startsWith(":/"));
      const others = revs.filter((rev) => !objects.includes(rev));
      const ranges = others.filter((rev) => rev.includes("..") || rev.startsWith("^"));
      const effects: Effect[] = [];
      if (objects.length > 0) effects.push({ kind: "objects", names: objects });
      if (ranges.length > 0 && !names) effects.push({ kind: "history", revs: ranges, pathspecs, follow: false });
      const single = others.filter((rev) => !ranges.includes(rev));
      if (single.length > 0 || revs.length === 0) effects.push({ kind: "show", revs: single.length > 0 ? single : ["HEAD"], pathspecs, namesOnly: names && !patch });
      return withFiles(effects);
    }
    case "cat-file": {
      if (parts.options.some((option) => /^(?:-[tse]|--batch-check(?:=.*)?)$/.test(option))) return [{ kind: "none" }];
      if (parts.options.some((option) => option.startsWith("--batch"))) return [{ kind: "refuse", reason: "'git cat-file --batch' prints objects it is given at run time" }];
      const objects = parts.positionals.filter((word) => !/^(?:blob|tree|commit|tag)$/.test(word));
      return [{ kind: "objects", names: objects }];
    }
    case "grep":
      return withFiles(grepEffects(parts, words, exists));
    case "blame":
    case "annotate":
      return [{ kind: "files", paths: [...fileOptions, ...(parts.dash ? parts.after : parts.positionals)] }];
    case "archive": {
      if (parts.options.some((option) => option.startsWith("--remote"))) return [{ kind: "refuse", reason: "'git archive --remote' copies a repository the guard cannot see" }];
      const [treeish = "HEAD", ...specs] = parts.positionals;
      return withFiles([{ kind: "tree", treeish, pathspecs: [...specs, ...parts.after] }]);
    }
    case "format-patch":
    case "fast-export":
    case "range-diff":
    case "merge-tree":
    case "request-pull": {
      if (sub === "fast-export" && parts.options.includes("--no-data")) return [{ kind: "none" }];
      if (sub === "request-pull" && !patch) return [{ kind: "none" }];
      const selectors = parts.options.filter((option) => REV_OPTIONS.test(option));
      const count = parts.options.some((option) => /^-\d+$/.test(option) || option === "-n");
      const extra = sub === "format-patch" && (count || !revs.some((rev) => rev.includes(".."))) ? ["HEAD"] : [];
      return [{ kind: "history", revs: [...selectors, ...revs, ...extra], pathspecs, follow: false }];
    }
    case "bundle":
      if (parts.positionals[0] !== "create") return [{ kind: "none" }];
      return [{ kind: "history", revs: [...parts.options.filter((option) => REV_OPTIONS.test(option)), ...parts.positionals.slice(2)], pathspecs: [], follow: false }];
    case "stash":
      return stashEffects(parts, patch, names);
    case "status":
      return parts.options.some((option) => /^(?:-v+|--verbose)$/.test(option))
        ? [
            { kind: "diff", command: ["diff", "--cached"], pathspecs },
            { kind: "diff", command: ["diff"], pathspecs },
          ]
        : [{ kind: "none" }];
    case "add":
    case "checkout":
    case "restore":
    case "reset":
    case "commit":
      if (!parts.options.some((option) => /^(?:-p|--patch|-i|--interactive|-e|--edit)$/.test(option))) return withFiles([{ kind: "none" }]);
      return withFiles([
        { kind: "diff", command: ["diff"], pathspecs },
        { kind: "diff", command: ["diff", "--cached"], pathspecs },
      ]);
    case "checkout-index": {
      if (!parts.options.some((option) => option.startsWith("--prefix") || option === "--temp")) return [{ kind: "none" }];
      if (parts.options.includes("--stdin")) return [{ kind: "refuse", reason: "'git checkout-index --stdin' copies files named at run time" }];
      return [{ kind: "index", pathspecs: parts.options.includes("-a") || parts.options.includes("--all") ? [] : [...parts.positionals, ...parts.after], others: "none" }];
    }
    case "worktree":
      return worktreeEffects(words);
    case "clone":
    case "fetch":
    case "pull":
    case "push":
    case "submodule":
      return copyEffects(sub, parts);
    case "notes":
      return withFiles(notesEffects(words));
    case "config":
      return configEffects(words);
    case "bisect":
      return parts.positionals[0] === "run" ? [{ kind: "run", command: parts.positionals.slice(1).join(" "), what: "'git bisect run'" }] : [{ kind: "none" }];
    case "rebase":
      return words.flatMap((word, k): Effect[] =>
        /^(?:-x|--exec)$/.test(word) && words[k + 1]
          ? [{ kind: "run", command: words[k + 1]!, what: "'git rebase --exec'" }]
          : word.startsWith("--exec=")
            ? [{ kind: "run", command: word.slice(7), what: "'git rebase --exec'" }]
            : [],
      );
    case "unpack-file":
      return [{ kind: "objects", names: parts.positionals }];
    case "filter-branch":
    case "filter-repo":
    case "instaweb":
    case "daemon":
    case "upload-pack":
    case "upload-archive":
    case "http-backend":
    case "send-email":
    case "gui":
    case "citool":
      return [{ kind: "refuse", reason: `'git ${sub}' runs programs or serves the repository's contents; not while sealed` }];
    default:
      return withFiles([{ kind: "none" }]);
  }
}

function resolveFrom(dir: string | undefined, path: string): string | undefined {
  if (path.includes(COMPUTED)) return undefined;
  if (isAbsolute(path)) return normalize(path);
  return dir === undefined ? undefined : normalize(join(dir, path));
}
