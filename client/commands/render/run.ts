import { lstat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { HandoffError } from "../../../shared/errors.js";
import { renderKernelMarkdown } from "../../../shared/kernel/render.js";
import { implement } from "../command.js";
import type { renderSpec } from "./spec.js";
import { readManifestFile, validatedManifest } from "../../lib/manifest-file.js";
import { createFile, replaceFile } from "../../platform/fs.js";
import { oneLine, terminalSafe } from "../../platform/terminal.js";

/** Writes `content` to `path`: exclusively, or with `force` by an atomic rename over it. */
async function writeOutput(path: string, content: string, force: boolean): Promise<void> {
  if (!force) {
    if (createFile(path, content) === "exists") {
      throw new HandoffError("usage", `--out ${path} already exists; not overwriting it`, {
        hint: "pass --force to replace it, or choose another --out",
      });
    }
    return;
  }
  const existing = await lstat(path).catch(() => undefined);
  if (existing?.isDirectory()) {
    throw new HandoffError("usage", `--out ${path} is a folder`, { hint: "give a file name for the Markdown" });
  }
  replaceFile(path, content);
}

export type RenderResult = { source: string; markdown: string } | { source: string; out: string; bytes: number };

export const command = implement<typeof renderSpec>()({
  async run({ flags, positionals, ctx }): Promise<RenderResult> {
    const source = positionals[0]!;
    const manifest = validatedManifest(source, await readManifestFile(source, { cwd: ctx.cwd }));
    const markdown = renderKernelMarkdown(manifest, basename(source));
    if (flags.out === undefined) return { source, markdown };
    const out = resolve(ctx.cwd, flags.out);
    await writeOutput(out, markdown, flags.force === true);
    return { source, out, bytes: Buffer.byteLength(markdown) };
  },
  // The manifest's strings are someone else's text: on stdout they cannot drive the terminal
  // (as show does); --out writes the exact Markdown and --json carries the exact strings.
  human: (result) =>
    "markdown" in result
      ? { out: terminalSafe(result.markdown) }
      : { out: oneLine(result.out), err: oneLine(`rendered ${result.source} to ${result.out} (not authoritative: the JSON stays the source of truth)`) },
  outcome: () => "ok",
});
