import { resolve } from "node:path";
import { implement } from "../command.js";
import { assertMayAccess } from "../../ops/guard/policy.js";
import { captureExclusion } from "../capture-policy.js";
import { readPublishFlags } from "../publish-flags.js";
import { readPassphrase } from "../secret-input.js";
import { type PublishResult, publishFile } from "../../ops/publish/publish-file.js";
import { fenceBlock } from "../../../shared/text/fence.js";
import { formatPublishReport } from "../publish-report.js";
import type { publishSpec } from "./spec.js";

export const command = implement<typeof publishSpec>()({
  async run({ flags, positionals, io, ctx }): Promise<PublishResult> {
    const path = resolve(ctx.cwd, positionals[0]!);
    // The same decision the guard hook and the MCP tools make: a sealed file is never sent.
    assertMayAccess(path, "send", { cwd: ctx.cwd, home: ctx.env.HOME });
    // Asked before anything is read or sent, so a mistyped passphrase stops here with nothing sent.
    const passphrase = flags.passphrase ? await readPassphrase(io, { confirm: true }) : undefined;
    const options = {
      path,
      ...readPublishFlags(flags),
      redact: !flags["no-redact"],
      withChanges: flags["with-changes"] === true,
      allowUnscanned: flags["allow-unscanned"] === true,
      excluded: captureExclusion({ cwd: ctx.cwd, home: ctx.env.HOME }),
      cwd: ctx.cwd,
      ...(passphrase === undefined ? {} : { passphrase }),
    };
    const result = await publishFile(options, { env: ctx.env, home: ctx.home, progress: ctx.progress });
    if (flags["no-redact"]) result.warnings.unshift("--no-redact: sent without scanning for secrets");
    return result;
  },
  human: (result, { json }) => ({ err: formatPublishReport(result, { closing: !json }), out: fenceBlock(result.resume_command) }),
  outcome: () => "ok",
});
