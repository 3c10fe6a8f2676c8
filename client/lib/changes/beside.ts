import { lstatSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readFrontmatter } from "../../../shared/ce/read-frontmatter.js";
import { HandoffError } from "../../../shared/errors.js";
import { MAX_DOCUMENT_BYTES } from "../../../shared/document/size-limits.js";
import { readRegularFile } from "../../platform/read-file.js";
import type { Env } from "../../platform/env.js";
import { partialRealpath, repoRelative } from "../../platform/paths.js";
import { managedRoots } from "../store.js";

/**
 * The changes bundle a local handoff names in its frontmatter (`changes: "<name>.changes"`,
 * written by create --with-changes), read from the handoff's own folder. A name that is not a
 * bare file name is refused (the document may come from anyone). None named: `<stem>.changes`
 * beside it when that exists (what the share page's "Download changes" saves), else undefined;
 * never in the managed store, where create always names its bundle, so a bundle an interrupted
 * create left behind is never taken for another handoff's.
 */
export function readChangesBeside(path: string, text: string, env: Env): Uint8Array | undefined {
  const stem = `${basename(path).replace(/\.[^.]*$/, "")}.changes`;
  const name = changesName(text) ?? (!inManagedStore(path, env) && lstatSync(join(dirname(path), stem), { throwIfNoEntry: false })?.isFile() ? stem : undefined);
  if (name === undefined) return undefined;
  if (!/^[^/\\\0]+\.changes$/.test(name) || name.startsWith(".")) {
    throw new HandoffError("invalid_document", `the handoff names its changes bundle '${name}', which is not a bare *.changes file name`, { hint: "fix or drop the 'changes' frontmatter key" });
  }
  const file = join(dirname(path), name);
  const bytes = readRegularFile(file, MAX_DOCUMENT_BYTES, { what: "the changes bundle", noFollow: true, label: file });
  if (bytes === "too_large") throw new HandoffError("too_large", `${file} is larger than a changes bundle can be`, { hint: "create the handoff again with --with-changes" });
  return bytes;
}

/** Whether `path` lies in one of the managed store's roots (real paths compared). */
function inManagedStore(path: string, env: Env): boolean {
  const folder = partialRealpath(dirname(path));
  return managedRoots(env).some((root) => repoRelative(partialRealpath(root), folder) !== undefined);
}

/** The `changes` key of a ce-handoff's frontmatter, if it has one. */
function changesName(text: string): string | undefined {
  const read = readFrontmatter(text);
  const value = read.kind === "indexed" ? read.data.changes : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}
