import type { Field } from "./shell-expand.js";

/**
 * What the guard knows about the programs a shell command runs: which ones only wrap another
 * command (and how many words their options take), which read whole folder trees, which run code
 * given as text, and which never read a file their arguments name (so an argument computed at
 * run time cannot make them print one), and the small functions that read an argument list by
 * that knowledge. shell-reads.ts applies it.
 */

/**
 * Programs that run the rest of their words as a command, with the options that take a value
 * (the option's next word is not the command). `--opt=value` forms are skipped as one word.
 */
export const WRAPPERS: Record<string, { valued: readonly string[]; leading?: number }> = {
  sudo: {
    valued: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type", "--other-user", "--command-timeout", "--close-from"],
  },
  doas: { valued: ["-u", "-C"] },
  nice: { valued: ["-n", "--adjustment"] },
  ionice: { valued: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"] },
  nohup: { valued: [] },
  setsid: { valued: [] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  time: { valued: ["-f", "-o", "--format", "--output"] },
  stdbuf: { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], leading: 1 },
  chrt: { valued: [], leading: 1 },
  taskset: { valued: [], leading: 1 },
  unbuffer: { valued: [] },
  caffeinate: { valued: ["-t", "-w"] },
  strace: { valued: ["-o", "-e", "-p", "-s", "-u", "-E", "-P", "-I", "-b", "-a", "-X"] },
  ltrace: { valued: ["-o", "-e", "-p", "-s", "-u", "-E", "-n", "-a"] },
  busybox: { valued: [] },
  catchsegv: { valued: [] },
  valgrind: { valued: [] },
  flatpak: { valued: [] },
};

/** Shells: a `-c` string, or code on stdin (a here-document, a pipe), is a command line of its own. */
export const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "rbash", "yash", "posh", "tcsh", "csh"]);

/** Interpreters whose code (an argument, a here-document) is scanned for the paths it names; a version suffix (`python3.12`) is ignored. */
const INTERPRETER_NAMES = new Set(
  (
    "python pypy node nodejs deno bun perl ruby irb php lua luajit tclsh wish Rscript R osascript awk gawk mawk nawk jq yq sqlite psql mysql mongo mongosh " +
    "julia groovy scala kotlin kotlinc swift elixir erl escript ghci runghc guile racket sbcl clisp pwsh powershell make gmake cmake m4 sed ed ex vi vim nvim " +
    "emacs gdb lldb expect bc dc"
  ).split(" "),
);

export function isInterpreter(name: string): boolean {
  if (INTERPRETER_NAMES.has(name)) return true;
  const last = name[name.length - 1] ?? "";
  return (last === "." || (last >= "0" && last <= "9")) && INTERPRETER_NAMES.has(name.replace(/[0-9.]+$/, ""));
}

/** Options that hand an interpreter its code as the next word (`python3 -c CODE`, `node -e CODE`). */
export const CODE_OPTIONS = new Set(["-c", "-e", "-E", "-p", "-r", "--eval", "--print", "--command", "--execute", "--expression", "-x", "--exec"]);

/** The path-like runs of code text: what is between quotes, brackets, commas and operators. */
export const CODE_TOKENS = /[^\s'"`(),;=<>|&{}+]+/g;

/** Programs that read every folder they are given, and the working folder when given none. */
export const RECURSIVE_COMMANDS = new Set(["rg", "ag", "ack", "pt", "ugrep", "rgrep", "find", "fd", "fdfind", "tree", "du", "tar", "bsdtar", "rsync", "7z", "7za", "git-grep", "gtar"]);

/** Recursive programs that make a copy (an archive, a folder elsewhere): a copy of the repository's `.git` is a copy of its history. */
export const COPIERS = new Set(["cp", "rsync", "scp", "tar", "bsdtar", "gtar", "zip", "7z", "7za"]);

/** Programs that recurse only with a flag, and that flag (`ls -r` reverses; `ls -R` recurses). */
export const RECURSIVE_FLAGS: Record<string, RegExp> = {
  grep: /^(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--dereference-recursive|-d ?recurse|--directories=recurse|--directories recurse)$/,
  egrep: /^(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|-d ?recurse|--directories=recurse|--directories recurse)$/,
  fgrep: /^(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|-d ?recurse|--directories=recurse|--directories recurse)$/,
  zgrep: /^(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)$/,
  ls: /^(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)$/,
  cp: /^(?:-[a-zA-Z]*[rRa][a-zA-Z]*|--recursive|--archive)$/,
  scp: /^-[a-zA-Z]*r[a-zA-Z]*$/,
  zip: /^-[a-zA-Z]*r[a-zA-Z]*$/,
  diff: /^(?:-[a-zA-Z]*r[a-zA-Z]*|--recursive)$/,
  chmod: /^(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)$/,
};

/**
 * Programs that never print a file their arguments name (they print the words themselves, names,
 * or nothing): an argument computed at run time cannot make them print a forbidden file's
 * contents. Everything else is assumed to read what its arguments name.
 */
export const NON_READING = new Set([
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "export",
  "local",
  "declare",
  "typeset",
  "readonly",
  "unset",
  "set",
  "shift",
  "exit",
  "return",
  "break",
  "continue",
  "test",
  "[",
  "sleep",
  "kill",
  "pkill",
  "wait",
  "jobs",
  "trap",
  "type",
  "which",
  "whereis",
  "hash",
  "mkdir",
  "rmdir",
  "rm",
  "unlink",
  "touch",
  "chmod",
  "chown",
  "chgrp",
  "date",
  "seq",
  "yes",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "pwd",
  "whoami",
  "id",
  "uname",
  "expr",
  "let",
  "printenv",
  "tput",
  "mktemp",
  "ls",
  "stat",
  "df",
  "read",
  "getopts",
  "shopt",
  "ulimit",
  "umask",
  "alias",
  "unalias",
  "history",
  "disown",
]);

/**
 * git's own subcommands (an alias cannot shadow one: git runs the builtin). Anything else is an
 * alias (resolved from `-c` and the configuration) or an external `git-NAME` program.
 */
export const GIT_BUILTINS = new Set(
  (
    "add am annotate apply archive bisect blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap check-ref-format checkout " +
    "checkout-index cherry cherry-pick citool clean clone column commit commit-graph commit-tree config count-objects credential describe diff " +
    "diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo " +
    "format-patch fsck gc get-tar-commit-id grep gui hash-object help hook http-backend index-pack init init-db instaweb interpret-trailers log " +
    "ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-one-file merge-tree mergetool mktag " +
    "mktree multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune prune-packed pull push range-diff read-tree " +
    "rebase receive-pack reflog remote repack replace request-pull rerere reset restore rev-list rev-parse revert rm scalar send-email " +
    "send-pack shortlog show show-branch show-index show-ref sparse-checkout stage stash status stripspace submodule switch symbolic-ref tag " +
    "unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-pack var verify-commit verify-pack verify-tag " +
    "version whatchanged worktree write-tree"
  ).split(" "),
);

/** The words after a wrapper's own options (and its `leading` operands, e.g. timeout's DURATION). */
export function skipOptions(args: Field[], valued: readonly string[], leading: number): Field[] {
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === "--") {
      i++;
      break;
    }
    if (!text.startsWith("-") || text === "-") break;
    if (valued.includes(text)) i++;
  }
  return args.slice(Math.min(i + leading, args.length));
}

export function isRecursive(name: string, args: Field[]): boolean {
  if (RECURSIVE_COMMANDS.has(name)) return true;
  const flag = RECURSIVE_FLAGS[name];
  if (flag === undefined) return false;
  return args.some((arg, i) => flag.test(arg.text) || (/^(?:-d|--directories)$/.test(arg.text) && flag.test(`${arg.text} ${args[i + 1]?.text ?? ""}`)));
}

/**
 * The paths inside one argument besides the argument itself: an option's value (`--in=x`,
 * `-fx`), a name=value's value (`if=x`), `@file` and `name=@file`/`name=<file` (curl, httpie), and
 * `file://` URLs (percent-decoded).
 */
export function embeddedPaths(text: string): string[] {
  const out: string[] = [];
  if (text[0] !== "-") out.push(text);
  else if (text.length > 2 && text[1] !== "-" && text[1] !== "=") out.push(text.slice(2));
  // `--in=FILE`, `if=FILE` (dd), `NAME=FILE`: the value may be a path.
  const eq = text.indexOf("=");
  if (eq >= 0) out.push(text.slice(eq + 1));
  // The checks below run on every word of every command: the regular expressions only where they can match.
  if (text.includes("@") || text.includes("<")) {
    for (const m of text.matchAll(/(?:^|[=:])[@<]([^;]+)/g)) out.push(m[1]!);
    const at = text.indexOf("@");
    if (at > 0 && text[at - 1] !== "=" && !text.slice(0, at).includes("/")) out.push(text.slice(at + 1));
  }
  if (/file:/i.test(text)) {
    for (const m of text.matchAll(/file:(?:\/\/(?:localhost)?)?(\/[^\s?#]*)/gi)) {
      try {
        out.push(decodeURIComponent(m[1]!));
      } catch {
        out.push(m[1]!);
      }
    }
  }
  return out.filter((path) => path !== "" && !isDigits(path));
}

function isDigits(text: string): boolean {
  for (const char of text) if (char < "0" || char > "9") return false;
  return true;
}
