/**
 * How git's words are read: which options take the next word as their value, which words are
 * revisions and which pathspecs, and the subcommands whose words need a reading of their own
 * (grep, stash, worktree, the copies, notes, config). git-table.ts is the table that uses them.
 */

/** One thing a git command can print, copy or run; git-reads.ts resolves each to paths. */
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

/**
 * Settings whose value is a program git runs (or a file that can set one). `alias.*` is separate:
 * a `!` alias is a shell command, refused while sealed; any other alias is resolved.
 */
export const COMMAND_SETTINGS =
  /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy|worktree|attributesfile)|pager\..+|sequence\.editor|credential\..*helper|diff\.external|diff\..+\.(?:textconv|command)|difftool\..+\.cmd|merge\..+\.driver|mergetool\..+\.cmd|filter\..+\.(?:clean|smudge|process)|gpg\.(?:.+\.)?program|interactive\.difffilter|uploadpack\.packobjectshook|remote\..+\.(?:uploadpack|receivepack|vcs)|protocol\..+\.allow|include\.path|includeif\..+|web\.browser|browser\..+\.(?:cmd|path)|man\..+\.(?:cmd|path)|sendemail\..+|ssh\.variant|core\.sshcommand)$/i;

/**
 * Options whose value is the next word (`-n 5`, `--author NAME`), so that word is not taken for a
 * revision or a pathspec. Flags that take an attached value only (`-M50%`, `-U3`, `--stat=80`) and
 * flags of no value (`-m`, `-c`, `-b`) are not here: listing one would swallow the next word.
 */
export const VALUED = new Set(
  (
    "-n -G -S -L -O -o --max-count --skip --since --after --until --before --author --committer --grep --grep-reflog --min-parents --max-parents " +
    "--exclude --date --encoding --output --src-prefix --dst-prefix --line-prefix --contents --prefix --remote --add-file --reference --origin " +
    "--branch --depth --template --separate-git-dir --upload-pack --file --blob --type --message"
  ).split(" "),
);
/** git grep's own: patterns, context and limits. */
export const GREP_VALUED = new Set(["-e", "-f", "-A", "-B", "-C", "-m", "--max-count", "--max-depth", "--threads", "--context", "--after-context", "--before-context"]);
/** A command's options, positionals before `--`, and words after it. */
export interface Split {
  options: string[];
  positionals: string[];
  after: string[];
  dash: boolean;
}

export function split(words: string[], valued: ReadonlySet<string> = VALUED): Split {
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
      if (valued.has(word) && words[i + 1] !== undefined) out.options.push(words[++i]!);
    } else out.positionals.push(word);
  }
  return out;
}

/** Without `--`, git takes a word as a pathspec when it has pathspec magic or names an existing path. */
function looksLikePathspec(word: string, exists: (word: string) => boolean): boolean {
  return /^:(?:[!^/]|\()/.test(word) || (!word.includes(":") && exists(word));
}

/** Revisions and pathspecs of a diff/log/show-like command. */
export function revsAndPathspecs(parts: Split, exists: (word: string) => boolean): { revs: string[]; pathspecs: string[] } {
  if (parts.dash) return { revs: parts.positionals, pathspecs: parts.after };
  const first = parts.positionals.findIndex((word) => looksLikePathspec(word, exists));
  return first < 0 ? { revs: parts.positionals, pathspecs: [] } : { revs: parts.positionals.slice(0, first), pathspecs: parts.positionals.slice(first) };
}

export function grepEffects(parts: Split, words: string[], exists: (word: string) => boolean): Effect[] {
  const patterns = words.some((word) => /^(?:-e|-f|--and|--or|--not)$/.test(word));
  const positionals = patterns ? parts.positionals : parts.positionals.slice(1);
  if (parts.options.includes("--no-index")) return [{ kind: "files", paths: [...(parts.dash ? parts.after : positionals), ...(positionals.length + parts.after.length === 0 ? ["."] : [])] }];
  const { revs, pathspecs } = parts.dash ? { revs: positionals, pathspecs: parts.after } : revsAndPathspecs({ ...parts, positionals }, exists);
  if (revs.length > 0) return revs.map((treeish): Effect => ({ kind: "tree", treeish, pathspecs }));
  const others = parts.options.includes("--untracked") ? (parts.options.includes("--no-exclude-standard") ? "ignored-too" : "untracked") : "none";
  return [{ kind: "index", pathspecs, others }];
}

export function stashEffects(parts: Split, patch: boolean, names: boolean): Effect[] {
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

export function copyEffects(sub: string, parts: Split): Effect[] {
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

export function notesEffects(words: string[]): Effect[] {
  const objects: string[] = [];
  for (let k = 0; k < words.length; k++) {
    if (/^(?:-C|-c|--reuse-message|--reedit-message)$/.test(words[k]!) && words[k + 1] !== undefined) objects.push(words[++k]!);
    else if (/^--re(?:use|edit)-message=/.test(words[k]!)) objects.push(words[k]!.slice(words[k]!.indexOf("=") + 1));
  }
  return objects.length > 0 ? [{ kind: "objects", names: objects }] : [{ kind: "none" }];
}

/** `git config` that sets a program git will run later (a `!` alias, a pager, a diff driver) is refused while sealed. */
export function configEffects(words: string[]): Effect[] {
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
export function optionFiles(words: string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const word = words[k]!;
    if (/^(?:-F|--file|--contents|--add-file|--template|-t)$/.test(word) && words[k + 1] !== undefined) out.push(words[++k]!);
    else if (/^(?:--file|--contents|--add-file|--template)=/.test(word)) out.push(word.slice(word.indexOf("=") + 1));
  }
  return out.filter((path) => path !== "-");
}

/** `-L START,END:FILE`, `-L :FUNC:FILE`: the files whose lines log prints. */
export function lineRangeFiles(words: string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const value = words[k] === "-L" ? words[k + 1] : words[k]!.startsWith("-L") ? words[k]!.slice(2) : undefined;
    if (value === undefined) continue;
    const colon = value.lastIndexOf(":");
    if (colon >= 0) out.push(value.slice(colon + 1));
  }
  return out;
}

/** `git worktree add [-b BRANCH] PATH [COMMIT-ISH]`: a checkout of COMMIT-ISH's tree (none with --no-checkout). */
export function worktreeEffects(words: string[]): Effect[] {
  if (words[0] !== "add" || words.includes("--no-checkout")) return [{ kind: "none" }];
  const positionals: string[] = [];
  for (let k = 1; k < words.length; k++) {
    if (/^(?:-b|-B|--reason|--orphan)$/.test(words[k]!)) k++;
    else if (!words[k]!.startsWith("-")) positionals.push(words[k]!);
  }
  return [{ kind: "tree", treeish: positionals[1] ?? "HEAD", pathspecs: [] }];
}
