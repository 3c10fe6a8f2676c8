import { fencedLines, splitLines } from "../text/markdown.js";

/**
 * File paths a handoff body names, so the client can check read-only which ones still exist.
 * Heuristic by design: a false "missing" is noise in a drift report, so plain prose needs a
 * stronger signal (a known extension or a trailing slash) than a backticked code span (a slash
 * is enough).
 */

/** At most this many paths of each kind are returned. */
export const MAX_REFERENCED_PATHS = 200;

const KNOWN_EXTENSIONS = new Set(
  (
    "ts tsx js jsx mjs cjs mts cts json jsonc json5 md mdx markdown txt rst adoc yaml yml toml ini cfg conf env " +
    "py pyi rb go rs java kt kts scala swift c h cc cpp cxx hpp hh m mm cs fs php pl lua r sql sh bash zsh fish " +
    "ps1 bat css scss sass less html htm vue svelte astro xml svg csv tsv lock gradle proto graphql gql tf hcl " +
    "dockerfile ex exs erl hs ml clj dart zig nim jl ipynb patch diff log"
  ).split(" "),
);
const KNOWN_NAMES = new Set([
  "Makefile",
  "Dockerfile",
  "Gemfile",
  "Rakefile",
  "Procfile",
  "Justfile",
  "LICENSE",
  "CODEOWNERS",
  ".gitignore",
  ".gitattributes",
  ".editorconfig",
  ".npmrc",
  ".nvmrc",
  ".env",
]);
// "Node.js" in prose is a runtime, not a file at the repository root.
const PRODUCT_NAMES = /^(node|next|nuxt|vue|react|express|three|d3|chart|ember|backbone|angular|alpine|deno|socket\.io)\.js$/i;
// A code span, or a plain token: one pass keeps paths in order of mention.
const TOKEN = /`([^`\n]+)`|[^\s`'"()<>[\]{},;|]+/g;
const WINDOWS_ABSOLUTE = /^[A-Za-z]:[\\/]/;
const LINE_SUFFIX = /(?::\d+(?::\d+)?|#L\d+(?:-L?\d+)?)$/;

export interface ScannedPaths {
  /** Repository-relative paths, in order of first mention. */
  relative: string[];
  /** Absolute or home-relative paths: machine-local capture context, not checked in a checkout. */
  absolute: string[];
}

/**
 * Scans a body once for both kinds of path. Fenced code blocks are skipped: they hold logs,
 * diffs (`a/src/x.ts`) and quoted output whose paths belong to another context.
 *
 * @example
 * ```ts
 * scanPaths("Edit `client/cli/main.ts` and docs/api.md, see /tmp/x.log and https://x.dev/a.md")
 * // { relative: ["client/cli/main.ts", "docs/api.md"], absolute: ["/tmp/x.log"] }
 * ```
 */
export function scanPaths(body: string): ScannedPaths {
  const relative = new Set<string>();
  const absolute = new Set<string>();
  const lines = splitLines(body);
  const fenced = fencedLines(lines);
  const add = (raw: string, backticked: boolean) => {
    const kind = classifyToken(raw, backticked);
    if (kind === undefined) return;
    const target = kind.absolute ? absolute : relative;
    if (target.size < MAX_REFERENCED_PATHS) target.add(kind.path);
  };
  for (let i = 0; i < lines.length; i++) {
    if (fenced.has(i)) continue;
    if (relative.size >= MAX_REFERENCED_PATHS && absolute.size >= MAX_REFERENCED_PATHS) break;
    const line = lines[i] ?? "";
    for (const match of line.matchAll(TOKEN)) {
      if (match[1] !== undefined) add(match[1], true);
      else add(match[0], false);
    }
  }
  return { relative: [...relative], absolute: [...absolute] };
}

function classifyToken(raw: string, backticked: boolean): { path: string; absolute: boolean } | undefined {
  // A code span may hold a command; only a single token can be a path.
  const token = raw.trim();
  if (token === "" || /\s/.test(token) || token.length > 300) return undefined;
  let path = token.replace(/[.,:;!?]+$/, "").replace(LINE_SUFFIX, "");
  if (path.includes("://") || /^(mailto|data|javascript):/i.test(path) || /^www\./i.test(path)) return undefined;
  const windows = WINDOWS_ABSOLUTE.test(path);
  if (/[*?[\]{}$%]/.test(path) || (!windows && path.includes("\\")) || path.includes("@") || path.includes("\0")) return undefined;
  if (path.startsWith("/") || path.startsWith("~/") || windows) {
    return path.length > 1 && looksLikePath(path, true) ? { path, absolute: true } : undefined;
  }
  path = path.replace(/^(\.\/)+/, "");
  const segments = path.split("/");
  if (path === "" || segments.some((s) => s === ".." || s === ".")) return undefined;
  if (segments.slice(0, -1).some((s) => s === "")) return undefined;
  if (segments.some(isVersionLike)) return undefined;
  return looksLikePath(path, backticked) ? { path, absolute: false } : undefined;
}

function looksLikePath(path: string, slashIsEnough: boolean): boolean {
  const name = path.replace(/\/+$/, "").split(/[\\/]/).pop() ?? "";
  if (name === "" || PRODUCT_NAMES.test(path)) return false;
  if (KNOWN_NAMES.has(name)) return true;
  const dot = name.lastIndexOf(".");
  if (dot > 0 && KNOWN_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())) return true;
  if (path.endsWith("/") && path.length > 1) return true;
  return slashIsEnough && path.includes("/") && /^[\w.-]+$/.test(name);
}

/** `v1`, `1.2.3`, `v2.0-beta`: format and release versions ("ce-handoff/v1"), not folders. */
function isVersionLike(segment: string): boolean {
  return /^v?\d+(?:\.\d+)*(?:[-+][\w.]+)?$/i.test(segment);
}
