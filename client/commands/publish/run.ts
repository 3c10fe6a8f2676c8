import { resolve } from "node:path";
import { implement } from "../command.js";
import { assertMayAccess } from "../../ops/guard/policy.js";
import { readPublishFlags } from "../publish-flags.js";
import { type PublishResult, publishFile } from "../../ops/publish/publish-file.js";
import { fenceBlock } from "../../../shared/text/fence.js";
import { formatPublishReport } from "../publish-report.js";
import type { publishSpec } from "./spec.js";

export const command = implement<typeof publishSpec>()({
  async run({ flags, positionals, ctx }): Promise<PublishResult> {
    const options = { path: resolve(ctx.cwd, positionals[0]!), ...readPublishFlags(flags), redact: !flags["no-redact"], withChanges: flags["with-changes"] === true, cwd: ctx.cwd };
    // The same decision the guard hook and the MCP tools make: a sealed file is never sent.
    assertMayAccess(options.path, "send", { cwd: ctx.cwd, home: ctx.env.HOME });
    const result = await publishFile(options, { env: ctx.env, home: ctx.home, progress: ctx.progress });
    if (flags["no-redact"]) result.warnings.unshift("--no-redact: sent without scanning for secrets");
    return result;
  },
  human: (result, { json }) => ({ err: formatPublishReport(result, { closing: !json }), out: fenceBlock(result.resume_command) }),
  outcome: () => "ok",
});
