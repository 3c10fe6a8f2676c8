import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The map stays true: every repository path the docs name exists, every relative link lands on a
// file and heading that exist, and docs/architecture.md's tree names every folder (and, where a
// row lists its folder's files, every file). A renamed file fails here, not in a reader's hands.

const repo = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The repository's folders: what git tracks or would track (ignored ones, like `.wrangler/` that a
 * test run's `wrangler dev` makes, are the machine's, not the repository's). Without git (an
 * unpacked tarball) every folder but the installed, built and git's own.
 */
function repositoryFolders(): string[] {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repo, encoding: "utf8", timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  if (listed.status !== 0) return walk("");
  const found = new Set<string>();
  for (const file of listed.stdout.split("\0").filter((name) => name !== "")) {
    for (let dir = dirname(file); dir !== "."; dir = dirname(dir)) found.add(dir);
  }
  return [...found].filter((dir) => existsSync(join(repo, dir)));
}

function walk(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && ![".git", "node_modules", "dist", ".wrangler"].includes(entry.name))
    .flatMap((entry) => {
      const folder = dir === "" ? entry.name : `${dir}/${entry.name}`;
      return [folder, ...walk(folder)];
    });
}

const FOLDERS = repositoryFolders();

const DOCS = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync(join(repo, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const TOP = new Set(FOLDERS.filter((folder) => !folder.includes("/")));
/** The docs' shorthand: `lib/store.ts` is client/lib/store.ts, `durable/` is worker/durable/. */
const SHORTHAND_ROOTS = ["client", "worker"];

/** A reference to a repository path, and where it was read. */
interface Reference {
  doc: string;
  path: string;
}

/** The repository path `span` names, if it names one: undefined for user paths, URLs, placeholders, values. */
function repositoryPath(span: string): string | undefined {
  const path = span.replace(/#.*$/, "").replace(/:\d+(-\d+)?$/, "");
  if (!path.includes("/") || /[\s<>*{}$…=:@[\]|]|\.\.\./.test(path) || /^(\/|~|\.\.?\/)/.test(path)) return undefined;
  const first = path.split("/")[0] ?? "";
  if (TOP.has(first)) return path;
  const base = SHORTHAND_ROOTS.find((root) => existsSync(join(repo, root, first)) && statSync(join(repo, root, first)).isDirectory());
  return base === undefined ? undefined : `${base}/${path}`;
}

function withoutFences(markdown: string): string {
  return markdown.replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, "");
}

/** Every path a doc names: in code spans (shorthand allowed) and in prose (from a top folder only). */
function references(doc: string): Reference[] {
  // A fenced block is an example (a shell session, a file's content): its paths are the user's.
  const text = withoutFences(readFileSync(join(repo, doc), "utf8"));
  const found: Reference[] = [];
  const prose = text.replace(/`[^`\n]+`/g, (span) => {
    const path = repositoryPath(span.slice(1, -1));
    if (path !== undefined) found.push({ doc, path });
    return " ";
  });
  for (const match of prose.matchAll(/(?<![\w./~-])([.\w-]+\/[\w./-]*[\w/])/g)) {
    const path = match[1]!;
    if (TOP.has(path.split("/")[0]!) && !/\]\(/.test(prose.slice(Math.max(0, match.index! - 2), match.index))) found.push({ doc, path });
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(doc: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = withoutFences(readFileSync(join(repo, doc), "utf8"));
  for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(match[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Each relative Markdown link that does not land: the file, or the heading its #fragment names. */
function brokenLinks(doc: string): string[] {
  const text = withoutFences(readFileSync(join(repo, doc), "utf8"));
  const broken: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!;
    if (/^[a-z]+:/i.test(target)) continue;
    const [file = "", fragment] = target.split("#");
    const landed = file === "" ? doc : relative(repo, join(repo, dirname(doc), file));
    if (!existsSync(join(repo, landed))) broken.push(`${doc}: ${target} (no such file)`);
    else if (fragment !== undefined && landed.endsWith(".md") && !anchors(landed).has(fragment)) broken.push(`${doc}: ${target} (no such heading)`);
  }
  return broken;
}

/** The rows of docs/architecture.md's tree: a path at the start of a line, its description after and below. */
function mapRows(architecture: string): Map<string, string> {
  const section = architecture.slice(architecture.indexOf("## The tree"));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const rows = new Map<string, string>();
  let current: string | undefined;
  for (const line of block.split("\n")) {
    const row = /^(\S+\/)\s*(.*)$/.exec(line);
    if (row) {
      current = row[1]!.replace(/\/$/, "");
      rows.set(current, row[2]!);
    } else if (current !== undefined && line.trim() !== "") rows.set(current, `${rows.get(current)} ${line.trim()}`);
  }
  return rows;
}

/** Whether `word` stands alone in `text` (not inside `install-skill` when looking for `skill`). */
function names(text: string, word: string): boolean {
  return new RegExp(`(?<![\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`).test(text);
}

/** The folders the map must name: every top-level one, and every one below client/, shared/ and worker/. */
const MAPPED = FOLDERS.filter((folder) => !folder.includes("/") || /^(client|shared|worker)\//.test(folder)).sort();

/** Why `folder` is not on the map, or undefined when it is: named by its own row, or by name in its parent's `<placeholder>` row. */
function unmapped(rows: Map<string, string>, folder: string): string | undefined {
  if (rows.has(folder)) return undefined;
  const parent = dirname(folder);
  const placeholder = [...rows.keys()].find((row) => dirname(row) === parent && /^<[^>]+>$/.test(row.slice(parent.length + 1)));
  if (placeholder === undefined) return `${folder}/ has no row in docs/architecture.md's tree`;
  return names(rows.get(placeholder)!, folder.slice(parent.length + 1)) ? undefined : `${folder}/ is not named in the ${placeholder}/ row`;
}

/** A row that lists any file of its folder lists them all (code files; a script's .d.ts goes with its .js). */
function unlistedFiles(rows: Map<string, string>, folder: string): string[] {
  const description = rows.get(folder);
  if (description === undefined || !existsSync(join(repo, folder))) return [];
  const files = readdirSync(join(repo, folder), { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js|cjs|mjs|sh)$/.test(entry.name))
    .map((entry) => entry.name)
    .filter((name) => !(name.endsWith(".d.ts") && existsSync(join(repo, folder, name.replace(/\.d\.ts$/, ".js")))));
  if (!files.some((name) => names(description, name))) return [];
  return files.filter((name) => !names(description, name)).map((name) => `${folder}/${name} is not in the ${folder}/ row, which lists the others`);
}

describe("the docs name only paths that exist", () => {
  it.each(DOCS)("%s", (doc) => {
    const missing = references(doc)
      .filter((ref) => !existsSync(join(repo, ref.path)))
      .map((ref) => `${ref.doc}: ${ref.path}`);
    expect([...new Set(missing)], "a doc names a path that is not in the repository: fix the doc or the path").toEqual([]);
    expect(brokenLinks(doc)).toEqual([]);
  });

  it("reads a path in a code span, its shorthand and in prose, and leaves user paths and placeholders alone", () => {
    expect(repositoryPath("client/guard/policy.ts")).toBe("client/guard/policy.ts");
    expect(repositoryPath("lib/run-context.ts")).toBe("client/lib/run-context.ts");
    expect(repositoryPath("durable/")).toBe("worker/durable/");
    expect(repositoryPath("docs/cli.md#flags")).toBe("docs/cli.md");
    for (const other of ["~/.config/handoff/config.json", "/v1/handoffs/:id/meta", "client/commands/<name>/spec.ts", "../shared/spec", "text/javascript", "https://host/x", "hooks/hooks.json"]) {
      expect(repositoryPath(other), other).toBeUndefined();
    }
  });
});

describe("docs/architecture.md's tree", () => {
  const rows = mapRows(readFileSync(join(repo, "docs/architecture.md"), "utf8"));

  it("names every folder", () => {
    expect(MAPPED.map((folder) => unmapped(rows, folder)).filter((why) => why !== undefined)).toEqual([]);
  });

  it("lists every file of a row that lists files", () => {
    expect([...rows.keys()].flatMap((folder) => unlistedFiles(rows, folder))).toEqual([]);
  });

  it("names no folder or file that is gone", () => {
    const gone = [...rows.keys()].filter((row) => !row.includes("<") && !existsSync(join(repo, row)));
    // A file in a row's text is in that row's folder (`hooks/hooks.json` below it), or named from the root.
    for (const [row, description] of rows) {
      for (const match of description.matchAll(/(?<![\w./*-])(\w[\w.-]*(?:\/[\w.-]+)*\.(?:ts|js|cjs|mjs|sh|json|md|yml|toml))(?![\w-])/g)) {
        const file = match[1]!;
        if (file.startsWith("dist/") || row.includes("<")) continue;
        if (!existsSync(join(repo, row, file)) && !existsSync(join(repo, file))) gone.push(`${row}/: ${file}`);
      }
    }
    expect(gone).toEqual([]);
  });
});
