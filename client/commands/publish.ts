import { homedir } from "node:os";
import { resolve } from "node:path";
import { EXIT, HandoffError } from "../../shared/errors.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";
import { PUBLISH_FLAGS, PUBLISH_FLAGS_HELP, readPublishFlags } from "../publish/flags.js";
import { publishFile } from "../publish/publish-file.js";
import { formatPublishReport, publishStdout } from "../publish/report.js";

export const help = `Usage: handoff publish FILE [options]

Encrypt FILE on this machine (AES-256-GCM, the key goes in the URL's #fragment, which never reaches
the server), send the ciphertext to the publishing server, and print an access-limited share URL.
Secrets are redacted again before anything is sent; if scanning fails, nothing is sent. The local
file is never changed or deleted, whatever happens.

Options:
${PUBLISH_FLAGS_HELP}
  --no-redact      Send the text without scanning it for secrets (prints a warning).
  --json           Print {path, url, expires_at, max_views, scope, warnings, resume_command}.

Environment: HANDOFF_SERVER, HANDOFF_TOKEN, HANDOFF_TEAM_TOKEN (over the config file; the tokens
are bound to HANDOFF_SERVER and unused without it: a token is only ever sent to its own server);
HANDOFF_HTTP_TIMEOUT_MS overrides how long to wait for the server (default 20000 to publish,
15000 to read, revoke or list; also read by resume, revoke and published).

Exit codes: 0 published; 2 usage; 3 not configured, server unreachable, slow, 5xx, 413, refused.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs("publish", args, { ...PUBLISH_FLAGS, "no-redact": { type: "boolean" } });
  if (positionals.length !== 1) {
    throw new HandoffError("usage", positionals.length === 0 ? "handoff publish needs a FILE" : "handoff publish takes one FILE", { hint: "run 'handoff publish FILE'" });
  }
  const flags = readPublishFlags(values);
  const result = await publishFile({
    path: resolve(io.cwd, positionals[0]!),
    ...flags,
    redact: !values["no-redact"],
    env: io.env,
    home: io.env.HOME ?? homedir(),
  });
  if (values["no-redact"]) result.warnings.unshift("--no-redact: sent without scanning for secrets");
  io.err(formatPublishReport(result));
  io.out(publishStdout(result, Boolean(values.json)));
  return EXIT.ok;
}
