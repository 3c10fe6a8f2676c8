import { randomBytes } from "node:crypto";
import { lstat, open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { EXIT, HandoffError } from "../../shared/errors.js";
import { renderKernelMarkdown } from "../../shared/kernel/render.js";
import type { KernelHandoff } from "../../shared/kernel/schema.js";
import { validateKernelText } from "../../shared/kernel/validate.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";
import { describeFsError, readTextFile } from "../read-file.js";
import { stringifyForTerminal } from "../../shared/terminal-safe.js";

export const help = `Usage: handoff render FILE.json [--out F] [--force] [--json]

Render a kernel.handoff/v1 manifest as Markdown for people. The JSON stays the source of
truth: the first line of the output says so. A manifest that does not validate is not
rendered; every problem is listed as 'path: message'.

Options:
  --out F     Write the Markdown to F instead of stdout. F must not exist yet.
  --force     With --out, replace F if it exists.
  --json      Print {source, markdown} (or {source, out, bytes} with --out) as JSON.

Exit codes: 0 rendered, 1 invalid manifest, 2 usage error or --out exists, 3 unreadable file
or failed write.
`;

/** Manifests are small; a cap keeps a wrong path (a log, a dump) from being read whole. */
export const MANIFEST_READ_CAP = 1024 * 1024;


/**
 * Reads a manifest as UTF-8 text through the CLI's one file reader: regular files only (a FIFO
 * is refused, never waited on), at most `cap` bytes, messages naming `path` as the user gave it.
 */
export async function readManifestFile(path: string, options: { cwd: string; cap?: number }): Promise<string> {
  return readTextFile(resolve(options.cwd, path), options.cap ?? MANIFEST_READ_CAP, {
    what: "the manifest",
    label: path,
    tooLargeHint: "check that this is the manifest you meant: a manifest is much smaller",
  });
}

async function writeNew(path: string, content: string): Promise<void> {
  // "wx" is O_CREAT|O_EXCL: an existing file, or a symlink at the name, is never followed or replaced.
  const handle = await open(path, "wx", 0o600);
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/** Writes `content` to `path`: exclusively, or with `force` by an atomic rename over it. */
async function writeOutput(path: string, content: string, force: boolean): Promise<void> {
  try {
    if (!force) {
      await writeNew(path, content);
      return;
    }
    const existing = await lstat(path).catch(() => undefined);
    if (existing?.isDirectory()) {
      throw new HandoffError("usage", `--out ${path} is a folder`, { hint: "give a file name for the Markdown" });
    }
    const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
    await writeNew(temporary, content);
    try {
      await rename(temporary, path);
    } catch (cause) {
      await unlink(temporary).catch(() => undefined);
      throw cause;
    }
  } catch (cause) {
    if (cause instanceof HandoffError) throw cause;
    if ((cause as NodeJS.ErrnoException).code === "EEXIST") {
      throw new HandoffError("usage", `--out ${path} already exists; not overwriting it`, {
        hint: "pass --force to replace it, or choose another --out",
      });
    }
    throw new HandoffError("io_failed", `cannot write ${path}: ${describeFsError(cause)}`, {
      hint: "check that the folder exists and is writable",
      cause,
    });
  }
}

/**
 * The manifest in `text`, or an `invalid_document` error (exit 1) that names the JSON syntax
 * error's line and column, or lists every issue as `path: message`. `source` names the file.
 */
export function validatedManifest(source: string, text: string): KernelHandoff {
  const validation = validateKernelText(text);
  if (validation.parseError) {
    const { line, column, message, path } = validation.parseError;
    throw new HandoffError("invalid_document", `${source}:${line}:${column}: ${message}`, {
      hint: "fix the JSON and rerun",
      details: { line, column, ...(path === undefined ? {} : { path }) },
    });
  }
  if (!validation.manifest) throw invalidManifest(source, validation.issues);
  return validation.manifest;
}

/** Every issue as `path: message`, the form `handoff validate` prints too. */
function invalidManifest(path: string, issues: { path: string; message: string }[]): HandoffError {
  const lines = issues.map((issue) => `  ${issue.path}: ${issue.message}`).join("\n");
  const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
  return new HandoffError("invalid_document", `${path} is not a valid kernel.handoff/v1 manifest (${count}):\n${lines}`, {
    hint: `fix these and rerun; 'handoff validate ${path}' checks without rendering`,
    details: { issues },
  });
}

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("render", args, {
    out: { type: "string" },
    force: { type: "boolean" },
  });
  if (positionals.length !== 1) {
    throw new HandoffError("usage", positionals.length === 0 ? "handoff render: which manifest? pass FILE.json" : "handoff render takes one FILE.json", {
      hint: "run 'handoff render --help'",
    });
  }
  if (values.force && values.out === undefined) {
    throw new HandoffError("usage", "--force only applies with --out", { hint: "add --out F, or drop --force" });
  }
  const source = positionals[0]!;
  const manifest = validatedManifest(source, await readManifestFile(source, { cwd: io.cwd }));
  const markdown = renderKernelMarkdown(manifest, basename(source));
  if (values.out === undefined) {
    io.out(values.json ? stringifyForTerminal({ source, markdown }) : markdown);
    return EXIT.ok;
  }
  const out = resolve(io.cwd, values.out);
  await writeOutput(out, markdown, values.force === true);
  if (values.json) io.out(stringifyForTerminal({ source, out, bytes: Buffer.byteLength(markdown) }));
  else {
    io.out(out);
    io.err(`rendered ${source} to ${out} (not authoritative: the JSON stays the source of truth)`);
  }
  return EXIT.ok;
}
