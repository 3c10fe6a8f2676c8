import { homedir } from "node:os";
import { resolve } from "node:path";
import { implement } from "../command.js";
import { readPublishFlags } from "../publish/flags.js";
import { readPassphrase } from "../platform/secret-input.js";
import { type PublishResult, publishFile } from "../publish/publish-file.js";
import { fenceBlock } from "../../shared/fence.js";
import { formatPublishReport } from "../publish/report.js";
import type { publishSpec } from "../registry.js";

export const command = implement<typeof publishSpec>()({
  async run({ flags, positionals, io }): Promise<PublishResult> {
    // Asked before anything else, so a mistyped passphrase stops here with nothing sent.
    const passphrase = flags.passphrase ? await readPassphrase(io, { confirm: true }) : undefined;
    const options = { path: resolve(io.cwd, positionals[0]!), ...readPublishFlags(flags), redact: !flags["no-redact"], ...(passphrase === undefined ? {} : { passphrase }) };
    const result = await publishFile(options, { env: io.env, home: io.env.HOME ?? homedir(), progress: io.progress });
    if (flags["no-redact"]) result.warnings.unshift("--no-redact: sent without scanning for secrets");
    return result;
  },
  human: (result, { json }) => ({ err: formatPublishReport(result, { closing: !json }), out: fenceBlock(result.resume_command) }),
  outcome: () => "ok",
});
