/**
 * The one path check for everything a changes bundle names: the rules git itself applies before
 * it writes a path into a checkout (`verify_path` in git's read-cache.c, with `core.protectHFS`
 * and `core.protectNTFS` both on, as git does on macOS and Windows), applied on every platform,
 * since a bundle written on Linux may be applied on a case-insensitive volume. Our own code,
 * written from git's rules: a path is refused when it
 * - is empty, absolute (`/x`, `C:x`), has an empty, `.` or `..` segment, or a trailing `/`;
 * - holds a backslash or a control character (U+0000..U+001F, U+007F);
 * - has a segment that a filesystem may take for `.git`: `.git` in any case; NTFS's `.git`
 *   followed by dots or spaces, or by `:` (an alternate data stream), and its short name `git~1`;
 *   HFS+'s `.git` with ignorable code points anywhere in it (U+200C..U+200F, U+202A..U+202E,
 *   U+2060..U+206F, U+FEFF);
 * - is a symbolic link named like git's own dotfiles (`.gitmodules`, `.gitattributes`,
 *   `.gitignore`, `.mailmap`, with the same spellings), which git refuses to follow.
 * Pure: strings in, a reason out.
 */

/** Code points HFS+ drops when it compares names, so `.g\u200Cit` is `.git` there. */
function hfsIgnorable(code: number): boolean {
  return (code >= 0x200c && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2060 && code <= 0x206f) || code === 0xfeff;
}

/** A segment as HFS+ compares it: ignorable code points dropped, ASCII case folded. */
function hfsFold(segment: string): string {
  let out = "";
  for (const char of segment) if (!hfsIgnorable(char.codePointAt(0) ?? 0)) out += char;
  return out.toLowerCase();
}

/** What follows a name NTFS resolves: any run of dots and spaces (dropped), then the end or a `:` (a stream). */
function ntfsTail(rest: string): boolean {
  return /^[. ]*(?::.*)?$/s.test(rest);
}

/**
 * Whether NTFS may resolve `segment` to `.<name>`: the name in any case with an NTFS tail, or an
 * 8.3 short name: the first six letters and `~1`..`~4`, or (git's fall-back) up to six letters of
 * `hashPrefix`, `~`, a digit 1-9 and more digits, eight characters in all.
 */
function ntfsDotfile(segment: string, name: string, hashPrefix: string): boolean {
  const lower = segment.toLowerCase();
  if (lower.startsWith(`.${name}`) && ntfsTail(lower.slice(name.length + 1))) return true;
  if (lower.slice(0, 6) === name.slice(0, 6) && lower[6] === "~" && /^[1-4]$/.test(lower[7] ?? "") && ntfsTail(lower.slice(8))) return true;
  const short = /^([^~]{0,6})~[1-9][0-9]*$/.exec(lower.slice(0, 8));
  return short !== null && lower.length >= 8 && hashPrefix.startsWith(short[1] ?? "") && ntfsTail(lower.slice(8));
}

/** Whether `segment` is a spelling of `.git` on some filesystem git protects against (NTFS: `.git` or `git~1`). */
function isDotGit(segment: string): boolean {
  const lower = segment.toLowerCase();
  return hfsFold(segment) === ".git" || (lower.startsWith(".git") && ntfsTail(lower.slice(4))) || (lower.startsWith("git~1") && ntfsTail(lower.slice(5)));
}

/** git's dotfiles it never follows through a symbolic link, with the prefix of their NTFS fall-back short names. */
const LINK_FORBIDDEN: readonly { name: string; hashPrefix: string }[] = [
  { name: "gitmodules", hashPrefix: "gi7eba" },
  { name: "gitattributes", hashPrefix: "gi7d29" },
  { name: "gitignore", hashPrefix: "gi250a" },
  { name: "mailmap", hashPrefix: "maba30" },
];

/** The file modes a bundle may carry: regular, executable, symbolic link. */
export type BundleMode = "100644" | "100755" | "120000";

/**
 * Why git would refuse to write `path` (with `mode`) into a checkout; undefined when it is a
 * plain repository-relative path.
 *
 * @example
 * ```ts
 * pathProblem("src/app.ts") // undefined
 * pathProblem(".GIT/hooks/pre-commit") // "a segment is a spelling of .git ('.GIT')"
 * pathProblem("docs/git~1/config") // "a segment is a spelling of .git ('git~1')"
 * ```
 */
export function pathProblem(path: string, mode: BundleMode = "100644"): string | undefined {
  if (path === "") return "it is empty";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "it is absolute";
  if (path.includes("\\")) return "it holds a backslash";
  const control = [...path].find((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x20 || code === 0x7f;
  });
  if (control !== undefined) return `it holds a control character (U+${(control.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")})`;
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "") return "it has an empty segment (a leading, doubled or trailing '/')";
    if (segment === "." || segment === "..") return `it has a '${segment}' segment`;
    if (isDotGit(segment)) return `a segment is a spelling of .git ('${segment}')`;
  }
  if (mode === "120000") {
    const last = segments[segments.length - 1] ?? "";
    const dotfile = LINK_FORBIDDEN.find(({ name, hashPrefix }) => hfsFold(last) === `.${name}` || ntfsDotfile(last, name, hashPrefix));
    if (dotfile) return `a symbolic link named like git's .${dotfile.name} ('${last}'), which git never follows`;
  }
  return undefined;
}

/**
 * Where a symbolic link at `path` with target `target` points, as a repository-relative path, or
 * why it leaves the working tree (absolute, climbs above the top, or into a `.git`).
 *
 * @example
 * ```ts
 * symlinkTarget("docs/latest", "v2/index.md") // { path: "docs/v2/index.md" }
 * symlinkTarget("secrets", "/etc/passwd") // { problem: "it points to an absolute path" }
 * symlinkTarget("a/b", "../../..") // { problem: "it points above the working tree" }
 * ```
 */
export function symlinkTarget(path: string, target: string): { path: string } | { problem: string } {
  if (target === "") return { problem: "its target is empty" };
  if (target.startsWith("/") || /^[A-Za-z]:/.test(target)) return { problem: "it points to an absolute path" };
  if (target.startsWith("~")) return { problem: "it points into a home folder" };
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return { problem: "its target holds a backslash or a control character" };
  const resolved = path.split("/").slice(0, -1);
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (resolved.length === 0) return { problem: "it points above the working tree" };
      resolved.pop();
    } else {
      if (isDotGit(segment)) return { problem: "it points into a .git folder" };
      resolved.push(segment);
    }
  }
  return { path: resolved.join("/") };
}
