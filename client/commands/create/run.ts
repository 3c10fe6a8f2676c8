import { resolve } from "node:path";
import { CE_CONTRACT } from "../../../shared/ce/contract.js";
import { MAX_DOCUMENT_BYTES as BODY_LIMIT } from "../../../shared/document/size-limits.js";
import { HandoffError } from "../../../shared/errors.js";
import { fenceBlock } from "../../../shared/text/fence.js";
import { captureGitSync, type GitCapture } from "../../lib/git.js";
import type { RunContext } from "../../lib/run-context.js";
import { type Created, type CreateResult, createHandoff } from "../../ops/create/create.js";
import type { KernelCreateResult } from "../../ops/create/kernel.js";
import type { PublishResult } from "../../ops/publish/publish-file.js";
import { type Io, readStdin } from "../../platform/io.js";
import { decodeUtf8, readRegularFile, tooLarge } from "../../platform/read-file.js";
import { implement } from "../command.js";
import { formatCreateReport, formatKernelReport } from "../create-report.js";
import { readPublishFlags } from "../publish-flags.js";
import { formatPublishReport } from "../publish-report.js";
import type { createSpec } from "./spec.js";

/**
 * `handoff create`: reads the body, writes the handoff (ops/create), and with --publish then
 * publishes what it wrote (ops/publish): the one command that chains two operations, so that a
 * failed publish never touches the handoff already written.
 */

export type CreateCommandResult = (CreateResult | KernelCreateResult) & { published?: PublishResult; local_resume_command?: string };

export const command = implement<typeof createSpec>()({
  async run({ flags, positionals, io, ctx }): Promise<CreateCommandResult> {
    // Checked before anything is written, so a bad option never leaves a handoff and a dead retry.
    const publishFlags = flags.publish ? readPublishFlags(flags) : undefined;
    // Loaded while the body is read, not after the handoff is written.
    const publishing = publishFlags ? import("../../ops/publish/publish-file.js") : undefined;
    publishing?.catch(() => undefined);
    const format = flags.format ?? "ce";
    const focus = positionals.join(" ").trim() || undefined;
    const keywords = [...new Set((flags.keyword ?? []).map((k) => k.trim()).filter((k) => k !== ""))];
    // A kernel manifest has no field for them (its schema refuses unknown keys, as the reference
    // does): say so rather than drop them silently.
    if (format === "kernel" && (focus !== undefined || keywords.length > 0)) {
      throw new HandoffError("usage", `--format kernel has no place for ${focus !== undefined ? "FOCUS words" : "--keyword"}: a kernel.handoff/v1 manifest refuses keys its schema does not know`, {
        hint:
          focus !== undefined
            ? "put the next session's focus in the partial manifest's objective.goal (or execution.entry_phase)"
            : "drop --keyword: discovery finds a manifest by its identity.name (--title) and objective.goal",
      });
    }
    // A body read from a file to be published is a send: judged as the guard judges it.
    const bodyFile = flags["body-file"];
    // The guard's policy is loaded only then: a create that does not publish never builds its tables.
    if (publishFlags && bodyFile !== undefined && bodyFile !== "-") {
      const { assertMayAccess } = await import("../../ops/guard/policy.js");
      assertMayAccess(resolve(ctx.cwd, bodyFile), "send", { cwd: ctx.cwd, home: ctx.env.HOME });
    }
    // --from-transcript with --body-file or --format kernel is refused by the spec's conflicts.
    const transcript = flags["from-transcript"];
    if (flags["with-changes"] && format === "kernel") {
      throw new HandoffError("usage", "--with-changes goes with a ce-handoff (the default format): a kernel manifest lives in the repository it describes", {
        hint: "publish the manifest with: handoff publish <manifest> --with-changes",
      });
    }
    // Git is read once (the draft needs the repository's top level to write paths relative to
    // it), synchronously: this process has nothing else to do while git runs, and spawnSync
    // costs less than spawn (lib/git.ts). A body read from a file or stdin is read first, so a
    // missing body is said before git is asked anything.
    let git: Promise<GitCapture | undefined> | undefined;
    const captureGit = () => (git ??= Promise.resolve(captureGitSync(ctx.cwd, ctx.env)));
    const body =
      transcript !== undefined ? await (await import("../../ops/create/transcript.js")).transcriptBody(resolve(ctx.cwd, transcript), ctx.cwd, await captureGit()) : await readBody(bodyFile, io, ctx);
    const deps = { now: ctx.now, captureGit };
    const common = { to: flags.to, cwd: ctx.cwd, env: ctx.env, redact: !flags["no-redact"], allowInsufficient: flags["allow-insufficient"] === true };
    const created: Created<CreateResult | KernelCreateResult> =
      format === "kernel"
        ? await (await import("../../ops/create/kernel.js")).createKernelHandoff({ partialText: body, name: nonEmptyFlag("title", flags.title), pins: flags.pin ?? [], ...common }, deps)
        : await createHandoff(
            {
              body,
              title: nonEmptyFlag("title", flags.title),
              summary: nonEmptyFlag("summary", flags.summary),
              keywords,
              focus,
              withChanges: flags["with-changes"] === true,
              allowUnscanned: flags["allow-unscanned"] === true,
              // Loaded only then, like the guard's check of --body-file above.
              ...(flags["with-changes"] ? { excluded: (await import("../capture-policy.js")).captureExclusion({ cwd: ctx.cwd, home: ctx.env.HOME }) } : {}),
              ...common,
            },
            deps,
          );
    if (!publishFlags || !publishing) return created.result;
    const { publishDocument } = await publishing;
    // The document just written is published from memory: nothing is read back from disk, and
    // it was redacted once already (the publish keeps that summary instead of scanning again).
    let published: PublishResult;
    try {
      published = await publishDocument(
        {
          path: created.result.path,
          text: created.document,
          label: created.label,
          redaction: created.result.redaction,
          ...(created.changes ? { changes: created.changes, withChanges: true } : {}),
          ...publishFlags,
          redact: !flags["no-redact"],
        },
        { env: ctx.env, home: ctx.home, progress: ctx.progress },
      );
    } catch (error) {
      // The handoff was written: what a successful create says about it (redaction, warnings,
      // retention) still holds, and is said before the publish error.
      const report =
        created.result.format === CE_CONTRACT ? formatCreateReport(created.result as CreateResult, { closing: false }) : formatKernelReport(created.result as KernelCreateResult, { closing: false });
      io.err(report);
      throw error;
    }
    return { ...created.result, published, resume_command: published.resume_command, local_resume_command: created.result.resume_command };
  },
  human(result, { json }) {
    const closing = !json && !result.published;
    const report = result.format === CE_CONTRACT ? formatCreateReport(result as CreateResult, { closing }) : formatKernelReport(result as KernelCreateResult, { closing });
    if (!result.published) return { err: report, out: fenceBlock(result.resume_command) };
    return { err: `${report}\n\n${formatPublishReport(result.published, { closing: !json })}`, out: fenceBlock(result.published.resume_command) };
  },
  outcome: () => "ok",
  // With --publish, one flat object as docs/cli.md shows it: the local result, then the published
  // link's fields over it, all warnings as strings, and the local resume command kept aside.
  json: (result) => {
    if (!result.published) return result;
    const { published, ...created } = result;
    return { ...created, ...published, warnings: [...created.warnings.map((w) => w.message), ...published.warnings], local_resume_command: created.local_resume_command };
  },
});

function nonEmptyFlag(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === "") {
    throw new HandoffError("usage", `--${name} is empty`, { hint: `pass a non-empty --${name}, or leave it out to derive it from the body` });
  }
  return value;
}

async function readBody(file: string | undefined, io: Io, ctx: RunContext): Promise<string> {
  if (file === undefined && io.stdinIsTTY) {
    throw new HandoffError("empty_input", "no handoff body given", {
      hint: "pass --body-file F, or pipe the body on stdin: handoff create < notes.md",
    });
  }
  const bytes = file === undefined || file === "-" ? await readStdin(io, BODY_LIMIT) : readRegularFile(resolve(ctx.cwd, file), BODY_LIMIT, { what: "--body-file", label: `--body-file ${file}` });
  if (bytes === "too_large") {
    throw tooLarge(file ?? "stdin", BODY_LIMIT, "point at plans, diffs and files instead of pasting them: a handoff is a pointer-first summary");
  }
  return decodeUtf8(bytes, `the body in ${file ?? "stdin"}`);
}
