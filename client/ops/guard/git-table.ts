import { isAbsolute, join, normalize } from "node:path";
import { GIT_BUILTINS } from "./programs.js";
import { COMPUTED } from "./shell-expand.js";

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

export type Effect =
  /** Prints no file's contents. */
  | { kind: "none" }
  /** Files it reads and prints, named relative to git's folder. */
  | { kind: "files"; paths: string[] }
  /** A diff of the work tree, the index and revisions (`git diff` and its plumbing): which side, which revisions, which pathspecs. */
  | { kind: "diff"; command: string[]; pathspecs: string[] }
  /** Commits' patches over a revision range (log -p, format-patch, fast-export, bundle): `revs` are passed to `git log`. */
  | { kind: "history"; revs: string[]; pathspecs: string[]; follow: boolean }
  /** `git show REV`: a commit's patch, a tag's, a tree's names or a blob, by what REV is. */
  | { kind: "show"; revs: string[]; pathspecs: string[]; namesOnly: boolean }
  /** Objects by name: `REV:path` is that path; a bare id is judged by its type. */
  | { kind: "objects"; names: string[] }
  /** Every file of a tree-ish (archive, grep in a revision), narrowed by pathspecs. */
  | { kind: "tree"; treeish: string; pathspecs: string[] }
  /** Tracked (and optionally untracked) files of the work tree, narrowed by pathspecs. */
  | { kind: "index"; pathspecs: string[]; others: "none" | "untracked" | "ignored-too" }
  /** A copy of a repository (`clone` of a local path, `fetch`/`push` to one): the source or target, and which. */
  | { kind: "copy"; repository: string; what: string }
  /** A command line git will run (`bisect run`, `rebase --exec`, a setting naming a program). */
  | { kind: "run"; command: string; what: string }
  /** Refused while sealed, with why. */
  | { kind: "refuse"; reason: string };

const GLOBAL_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path", "--super-prefix", "--attr-source", "--list-cmds"]);
const PATHSPEC_MODES = new Set(["--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--bare"]);

/**
 * Settings whose value is a program git runs (or a file that can set one). `alias.*` is separate:
 * a `!` alias is a shell command, refused while sealed; any other alias is resolved.
 */
export const COMMAND_SETTINGS =
  /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy|worktree|attributesfile)|pager\..+|sequence\.editor|credential\..*helper|diff\.external|diff\..+\.(?:textconv|command)|difftool\..+\.cmd|merge\..+\.driver|mergetool\..+\.cmd|filter\..+\.(?:clean|smudge|process)|gpg\.(?:.+\.)?program|interactive\.difffilter|uploadpack\.packobjectshook|remote\..+\.(?:uploadpack|receivepack|vcs)|protocol\..+\.allow|include\.path|includeif\..+|web\.browser|browser\..+\.(?:cmd|path)|man\..+\.(?:cmd|path)|sendemail\..+|ssh\.variant|core\.sshcommand)$/i;

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

/** Options (of the diff and log families) whose value is the next word. */
const VALUED = new Set([
  "-n",
  "-G",
  "-S",
  "-L",
  "-O",
  "-e",
  "-f",
  "-A",
  "-B",
  "-C",
  "-m",
  "--max-count",
  "--skip",
  "--since",
  "--after",
  "--until",
  "--before",
  "--author",
  "--committer",
  "--grep",
  "--grep-reflog",
  "--min-parents",
  "--max-parents",
  "--exclude",
  "--format",
  "--date",
  "--encoding",
  "--output",
  "--src-prefix",
  "--dst-prefix",
  "--line-prefix",
  "--abbrev",
  "--max-depth",
  "--threads",
  "--contents",
  "--prefix",
  "--remote",
  "--add-file",
  "--reference",
  "--origin",
  "--branch",
  "--depth",
  "--template",
  "--separate-git-dir",
  "--upload-pack",
  "--file",
  "--blob",
  "--type",
  "-b",
  "-o",
  "-F",
  "--message",
  "-M",
  "--stdin-packs",
]);
const NAMES_ONLY = /^(?:--stat(?:=.*)?|--numstat|--shortstat|--name-only|--name-status|--summary|--dirstat(?:=.*)?|--raw|--compact-summary|-s|--no-patch|--quiet|--oneline)$/;
const PATCH =
  /^(?:-p|-u|--patch|--patch-with-stat|--patch-with-raw|-U\d*|--unified(?:=.*)?|--word-diff(?:=.*)?|--color-words(?:=.*)?|--cc|--combined-all-paths|--binary|-W|--function-context|--full-index|--check|--remerge-diff|--ext-diff|--textconv)$/;
/** History options that make log answer a question about contents (`-S secret` says whether a commit adds it). */
const ORACLE = /^(?:-[GS].*|--pickaxe-regex|--pickaxe-all|--find-object(?:=.*)?)$/;
const REV_OPTIONS =
  /^(?:--all|--branches(?:=.*)?|--tags(?:=.*)?|--remotes(?:=.*)?|--glob=.*|--exclude=.*|--reflog|--not|-g|--walk-reflogs|--bisect|--alternate-refs|--exclude-hidden=.*|--root|--first-parent)$/;

/** A command's options, positionals before `--`, and words after it. */
interface Split {
  options: string[];
  positionals: string[];
  after: string[];
  dash: boolean;
}

function split(words: string[]): Split {
  const out: Split = { options: [], positionals: [], after: [], dash: false };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") {
      out.dash = true;
      out.after = words.slice(i + 1);
      break;
    }
    if (word.startsWith("-") && word !== "-") {
      out.options.push(word);
      if (VALUED.has(word) && words[i + 1] !== undefined) out.options.push(words[++i]!);
    } else out.positionals.push(word);
  }
  return out;
}

/** Without `--`, git takes a word as a pathspec when it has pathspec magic or names an existing path. */
function looksLikePathspec(word: string, exists: (word: string) => boolean): boolean {
  return /^:(?:[!^/]|\()/.test(word) || (!word.includes(":") && exists(word));
}

/** Revisions and pathspecs of a diff/log/show-like command. */
function revsAndPathspecs(parts: Split, exists: (word: string) => boolean): { revs: string[]; pathspecs: string[] } {
  if (parts.dash) return { revs: parts.positionals, pathspecs: parts.after };
  const first = parts.positionals.findIndex((word) => looksLikePathspec(word, exists));
  return first < 0 ? { revs: parts.positionals, pathspecs: [] } : { revs: parts.positionals.slice(0, first), pathspecs: parts.positionals.slice(first) };
}

/**
 * What one git subcommand prints, copies or runs: the table. `exists` says whether a word names
 * a path relative to git's folder (git's own rev-or-path rule without `--`).
 */
export function effectsOf(invocation: GitInvocation, exists: (word: string) => boolean): Effect[] {
  const { sub, words } = invocation;
  const parts = split(words);
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
      if (parts.positionals[0] !== "add" || parts.options.includes("--no-checkout")) return [{ kind: "none" }];
      return [{ kind: "tree", treeish: parts.positionals[2] ?? "HEAD", pathspecs: [] }];
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

function grepEffects(parts: Split, words: string[], exists: (word: string) => boolean): Effect[] {
  const patterns = words.some((word) => /^(?:-e|-f|--and|--or|--not)$/.test(word));
  const positionals = patterns ? parts.positionals : parts.positionals.slice(1);
  if (parts.options.includes("--no-index")) return [{ kind: "files", paths: [...(parts.dash ? parts.after : positionals), ...(positionals.length + parts.after.length === 0 ? ["."] : [])] }];
  const { revs, pathspecs } = parts.dash ? { revs: positionals, pathspecs: parts.after } : revsAndPathspecs({ ...parts, positionals }, exists);
  if (revs.length > 0) return revs.map((treeish): Effect => ({ kind: "tree", treeish, pathspecs }));
  const others = parts.options.includes("--untracked") ? (parts.options.includes("--no-exclude-standard") ? "ignored-too" : "untracked") : "none";
  return [{ kind: "index", pathspecs, others }];
}

function stashEffects(parts: Split, patch: boolean, names: boolean): Effect[] {
  const [action, ...rest] = parts.positionals;
  if (action === "list" && patch) return [{ kind: "history", revs: ["-g", "refs/stash"], pathspecs: [], follow: false }];
  if (action === "show" && !(names && !patch)) {
    const untracked = parts.options.filter((option) => /^(?:-u|--include-untracked|--only-untracked)$/.test(option));
    return [{ kind: "diff", command: ["stash", "show", ...untracked, ...rest], pathspecs: [] }];
  }
  if ((action === undefined || action === "push" || action === "save") && parts.options.some((option) => /^(?:-p|--patch)$/.test(option)))
    return [{ kind: "diff", command: ["diff"], pathspecs: parts.after }];
  return [{ kind: "none" }];
}

/** Whether a clone/fetch source or push target is a repository on this machine (a path or a file:// URL). */
function localRepository(word: string): boolean {
  if (/^file:/i.test(word)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return false;
  // scp-like `host:path` (a colon before any slash) is remote.
  const colon = word.indexOf(":");
  return colon < 0 || (word.indexOf("/") >= 0 && word.indexOf("/") < colon);
}

function copyEffects(sub: string, parts: Split): Effect[] {
  const [first, second] = sub === "submodule" ? parts.positionals.slice(1) : parts.positionals;
  if (sub === "submodule" && parts.positionals[0] === "foreach") return [{ kind: "run", command: parts.positionals.slice(1).join(" "), what: "'git submodule foreach'" }];
  if (sub === "submodule" && parts.positionals[0] !== "add") return [{ kind: "none" }];
  const repository = first;
  if (repository === undefined) return [{ kind: "none" }];
  if (sub === "push")
    return localRepository(repository) && repository.includes("/")
      ? [{ kind: "copy", repository: ".", what: `'git push ${repository}' copies this repository's commits to a repository on this machine` }]
      : [{ kind: "none" }];
  if (!localRepository(repository)) return [{ kind: "none" }];
  const path = repository.replace(/^file:(?:\/\/(?:localhost)?)?/i, "");
  // `git fetch origin` names a remote, not a path: no slash and no such folder.
  if (sub !== "clone" && sub !== "submodule" && !path.includes("/") && path !== "." && path !== "..") return [{ kind: "none" }];
  return [{ kind: "copy", repository: path, what: `'git ${sub} ${repository}${second ? ` ${second}` : ""}' copies the repository at '${repository}'` }];
}

function notesEffects(words: string[]): Effect[] {
  const objects: string[] = [];
  for (let k = 0; k < words.length; k++) {
    if (/^(?:-C|-c|--reuse-message|--reedit-message)$/.test(words[k]!) && words[k + 1] !== undefined) objects.push(words[++k]!);
    else if (/^--re(?:use|edit)-message=/.test(words[k]!)) objects.push(words[k]!.slice(words[k]!.indexOf("=") + 1));
  }
  return objects.length > 0 ? [{ kind: "objects", names: objects }] : [{ kind: "none" }];
}

/** `git config` that sets a program git will run later (a `!` alias, a pager, a diff driver) is refused while sealed. */
function configEffects(words: string[]): Effect[] {
  const positionals: string[] = [];
  let reading = false;
  for (let k = 0; k < words.length; k++) {
    const word = words[k]!;
    if (/^(?:--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--show-origin|--show-scope|--name-only|get|list)$/.test(word)) reading = true;
    else if (/^(?:-f|--file|--blob|--type|--default|--comment|--value|--url)$/.test(word)) k++;
    else if (!word.startsWith("-") && !(positionals.length === 0 && /^(?:set|unset|rename-section|remove-section|edit)$/.test(word))) positionals.push(word);
  }
  const [key = "", value = ""] = positionals;
  if (reading || positionals.length < 2) return [{ kind: "none" }];
  if (/^alias\./i.test(key))
    return value.startsWith("!") ? [{ kind: "refuse", reason: `'git config ${key}' defines a shell alias ('!...'), which runs any command; not while sealed` }] : [{ kind: "none" }];
  if (COMMAND_SETTINGS.test(key)) return [{ kind: "refuse", reason: `'git config ${key}' names a program git would run later; not while sealed` }];
  return [{ kind: "none" }];
}

/** Files options make git read: `-F FILE`, `--file=FILE`, `--contents FILE`, `--add-file=FILE`. */
function optionFiles(words: string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const word = words[k]!;
    if (/^(?:-F|--file|--contents|--add-file|--template|-t)$/.test(word) && words[k + 1] !== undefined) out.push(words[++k]!);
    else if (/^(?:--file|--contents|--add-file|--template)=/.test(word)) out.push(word.slice(word.indexOf("=") + 1));
  }
  return out.filter((path) => path !== "-");
}

/** `-L START,END:FILE`, `-L :FUNC:FILE`: the files whose lines log prints. */
function lineRangeFiles(words: string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const value = words[k] === "-L" ? words[k + 1] : words[k]!.startsWith("-L") ? words[k]!.slice(2) : undefined;
    if (value === undefined) continue;
    const colon = value.lastIndexOf(":");
    if (colon >= 0) out.push(value.slice(colon + 1));
  }
  return out;
}

function resolveFrom(dir: string | undefined, path: string): string | undefined {
  if (path.includes(COMPUTED)) return undefined;
  if (isAbsolute(path)) return normalize(path);
  return dir === undefined ? undefined : normalize(join(dir, path));
}
