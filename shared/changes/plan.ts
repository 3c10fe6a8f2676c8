import { HandoffError, type Result, err, ok } from "../errors.js";
import { type ChangesBundle, concatBytes } from "./bundle.js";
import { blobId, deltaResultSize, encodeBase85Lines, zlibStored } from "./git-binary.js";
import { type BundleMode, pathProblem, symlinkTarget } from "./path.js";
import { type PatchEntry, parsePatch } from "./patch.js";

/**
 * The receiver's reading of a changes bundle: the manifest is the contract. The patch may touch
 * exactly the tracked paths the manifest lists, in its order, with its modes (format 2; format 1
 * states none, so its tracked paths may only be plain files that stay plain), every path passes
 * git's own path rules (path.ts), a symbolic link never points out of the working tree, and what
 * applying writes or inflates stays under RECEIVER_LIMITS. Untracked files become new-file
 * sections of the same patch, so git writes everything and these checks cover all of it. Each
 * file also carries the flags a person should see first: what tools obey or run.
 * Pure: the bundle in, a plan or a refusal naming the path out; nothing is written here.
 */

/** The receiver's cap, stated in docs/storage.md: bytes applying may write or inflate, all files together. */
export const RECEIVER_LIMITS = { expandedBytes: 32 * 1024 * 1024 } as const;

export interface PlannedChange {
  path: string;
  change: "added" | "modified" | "deleted";
  /** The mode before (null: created) and after (null: deleted). */
  from_mode: BundleMode | null;
  to_mode: BundleMode | null;
  binary: boolean;
  /** Bytes applying writes or inflates for it (a text hunk's added lines, a binary hunk's sizes, an untracked file's length). */
  bytes: number;
  /** An untracked file of the sender's, carried whole. */
  untracked: boolean;
  /** A symbolic link's target after the change. */
  link_target?: string;
  /** What tools obey or run about it (empty: nothing); applying a flagged file needs --allow-flagged. */
  flags: string[];
}

export interface ChangesPlan {
  changes: PlannedChange[];
  expanded_bytes: number;
  /** The whole patch git applies: the tracked changes, then a new-file section per untracked file. */
  patch: Uint8Array;
}

/**
 * Checks `bundle` against its manifest and builds the patch to apply, or refuses the whole
 * bundle with the first offending path and why. `hooksPath` is the receiver's core.hooksPath,
 * when set, so files under it are flagged as git hooks.
 *
 * @example
 * ```ts
 * const plan = await planChanges(bundle);
 * plan.ok && plan.value.changes // [{ path: "README.md", change: "modified", from_mode: "100644", to_mode: "100644", flags: [] , ... }]
 * ```
 */
export async function planChanges(bundle: ChangesBundle, options: { hooksPath?: string } = {}): Promise<Result<ChangesPlan>> {
  const { manifest } = bundle;
  const parsed = parsePatch(bundle.patch);
  if ("problem" in parsed) return refuse(parsed.problem.path, `the patch is refused at line ${parsed.problem.line}: ${parsed.problem.why}`);
  const listed = new Map(manifest.tracked.map((t, i) => [t.path, i]));
  const changes: PlannedChange[] = [];
  let expanded = 0;
  for (const [i, entry] of parsed.entries.entries()) {
    const at = listed.get(entry.path);
    if (at === undefined) return refuse(entry.path, "the patch changes it, and the manifest does not list it");
    if (at !== i) return refuse(entry.path, "the patch changes it out of the manifest's order (or twice)");
    const listing = manifest.tracked[at]!;
    if (listing.binary !== entry.binary) return refuse(entry.path, `the manifest calls it ${listing.binary ? "binary" : "text"}, the patch does not`);
    if (listing.bytes !== entry.end - entry.start) return refuse(entry.path, `the manifest gives its part of the patch ${listing.bytes} bytes, the patch ${entry.end - entry.start}`);
    const stated = bundle.version === undefined || bundle.version >= 2 ? { from: listing.from_mode ?? null, to: listing.to_mode ?? null } : undefined;
    if (stated && (stated.from !== entry.from_mode || stated.to !== entry.to_mode)) {
      return refuse(entry.path, `the patch gives it mode ${describeModes(entry.from_mode, entry.to_mode)}, the manifest ${describeModes(stated.from, stated.to)}`);
    }
    if (!stated && [entry.from_mode, entry.to_mode].some((m) => m !== null && m !== "100644")) {
      return refuse(entry.path, `a format-1 bundle states no modes, and the patch gives it mode ${describeModes(entry.from_mode, entry.to_mode)} (only plain files may change in one)`);
    }
    if (entry.link_target !== undefined) {
      const target = symlinkTarget(entry.path, entry.link_target);
      if ("problem" in target) return refuse(entry.path, `a symbolic link to '${entry.link_target}': ${target.problem}`);
    }
    const bytes = await entryBytes(entry);
    if (typeof bytes === "string") return refuse(entry.path, bytes);
    expanded += bytes;
    if (expanded > RECEIVER_LIMITS.expandedBytes) return overCap(entry.path);
    changes.push({
      path: entry.path,
      change: entry.from_mode === null ? "added" : entry.to_mode === null ? "deleted" : "modified",
      from_mode: entry.from_mode,
      to_mode: entry.to_mode,
      binary: entry.binary,
      bytes,
      untracked: false,
      ...(entry.link_target === undefined ? {} : { link_target: entry.link_target }),
      flags: [],
    });
  }
  const missing = manifest.tracked.find((t) => !parsed.entries.some((e) => e.path === t.path));
  if (missing) return refuse(missing.path, "the manifest lists it, and the patch does not change it");

  const sections: Uint8Array[] = [bundle.patch];
  const hexLength = manifest.base.head.length;
  for (const [i, file] of manifest.files.entries()) {
    const problem = pathProblem(file.path, file.mode);
    if (problem) return refuse(file.path, `its path is refused: ${problem}`);
    const bytes = bundle.files[i] ?? new Uint8Array(0);
    expanded += bytes.length;
    if (expanded > RECEIVER_LIMITS.expandedBytes) return overCap(file.path);
    sections.push(await newFileSection(file.path, file.mode, bytes, hexLength));
    changes.push({ path: file.path, change: "added", from_mode: null, to_mode: file.mode, binary: true, bytes: bytes.length, untracked: true, flags: [] });
  }
  // A path below another the bundle turns into a symbolic link would be written through it.
  const links = changes.filter((c) => c.to_mode === "120000").map((c) => c.path);
  const through = changes.find((c) => links.some((link) => c.path.startsWith(`${link}/`)));
  if (through) return refuse(through.path, "it lies below a symbolic link the same bundle creates");
  for (const change of changes) change.flags = flagsFor(change, options.hooksPath);
  return ok({ changes, expanded_bytes: expanded, patch: concatBytes(sections) });
}

/** Bytes an entry makes git write or inflate: a text hunk's added lines; each binary hunk's declared size, and a delta's result. */
async function entryBytes(entry: PatchEntry): Promise<number | string> {
  let bytes = entry.added_bytes;
  for (const hunk of entry.binary_hunks) {
    if (hunk.size > RECEIVER_LIMITS.expandedBytes) return `a binary hunk that inflates to ${hunk.size} bytes, over the ${mib(RECEIVER_LIMITS.expandedBytes)} a bundle may expand to here`;
    bytes += hunk.size;
  }
  const forward = entry.binary_hunks[0];
  if (forward?.kind === "delta") {
    const result = await deltaResultSize(forward.data);
    if (result === undefined) return "a binary delta whose header cannot be read";
    bytes += result;
  }
  return bytes;
}

/**
 * What tools obey or run about a change, for the preview: executable bits, symbolic links, the
 * dotfiles editors, shells, package managers, CI and agents read, and git's hooks and attributes.
 *
 * @example
 * ```ts
 * flagsFor({ path: ".envrc", to_mode: "100644" }) // ["direnv runs it when a shell enters the folder"]
 * ```
 */
export function flagsFor(change: { path: string; to_mode: BundleMode | null; link_target?: string }, hooksPath?: string): string[] {
  const flags: string[] = [];
  if (change.to_mode === "100755") flags.push("executable");
  if (change.to_mode === "120000") flags.push(`a symbolic link to '${change.link_target ?? "?"}'`);
  const path = change.path;
  const lower = path.toLowerCase();
  const known = KNOWN.find(([pattern]) => pattern.test(lower));
  if (known) flags.push(known[1]);
  const hooks = hooksPath?.replace(/^\.\//, "").replace(/\/+$/, "");
  if (hooks && !hooks.startsWith("/") && lower.startsWith(`${hooks.toLowerCase()}/`)) flags.push("a git hook (this checkout's core.hooksPath)");
  if (!known && path.split("/").some((segment) => segment.startsWith("."))) flags.push("a dotfile or dot-folder: tools may read or run it");
  return flags;
}

const KNOWN: readonly [RegExp, string][] = [
  [/(^|\/)\.envrc$/, "direnv runs it when a shell enters the folder"],
  [/(^|\/)(\.npmrc|\.yarnrc|\.yarnrc\.yml|\.pnpmfile\.cjs)$/, "the package manager reads it (package sources, scripts)"],
  [/^\.github\/workflows\//, "GitHub Actions runs it"],
  [/^\.github\//, "GitHub reads it (actions, settings)"],
  [/^\.vscode\/(tasks|launch|settings)\.json$/, "VS Code runs or reads it"],
  [/^\.claude\//, "Claude Code reads it (settings, hooks, commands)"],
  [/(^|\/)\.gitattributes$/, "git reads it (filters, merge drivers)"],
  [/(^|\/)\.gitmodules$/, "git reads it (submodules)"],
  [/^(\.husky|\.githooks)\//, "a git hook manager runs it"],
  [/(^|\/)(lefthook\.yml|\.pre-commit-config\.yaml)$/, "a git hook manager runs it"],
];

/** A new-file section git applies itself: a binary literal of the file (works for any bytes). */
async function newFileSection(path: string, mode: BundleMode, bytes: Uint8Array, hexLength: number): Promise<Uint8Array> {
  const id = await blobId(bytes, hexLength);
  const lines = [
    `diff --git a/${path} b/${path}`,
    `new file mode ${mode}`,
    `index ${"0".repeat(hexLength)}..${id}`,
    "GIT binary patch",
    `literal ${bytes.length}`,
    ...encodeBase85Lines(zlibStored(bytes)),
    "",
    "",
  ];
  return new TextEncoder().encode(lines.join("\n"));
}

function describeModes(from: BundleMode | null, to: BundleMode | null): string {
  return from === to ? `${from}` : `${from ?? "(none)"} -> ${to ?? "(none)"}`;
}

function mib(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB`;
}

function overCap(path: string) {
  return refuse(path, `with it the bundle expands to more than the ${mib(RECEIVER_LIMITS.expandedBytes)} a bundle may write here`);
}

function refuse(path: string | undefined, why: string) {
  return err(
    new HandoffError("invalid_document", `--apply-changes: the changes bundle is refused${path === undefined ? "" : ` at ${path}`}: ${why}; nothing was applied`, {
      hint: "nothing was written and nothing was run; ask the sender what the bundle was meant to hold (resume without --apply-changes still orients from the handoff)",
      details: path === undefined ? {} : { path },
    }),
  );
}
