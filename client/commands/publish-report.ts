import { oneLine } from "../platform/terminal.js";
import { formatDuration } from "../../shared/time/duration.js";
import { redactionLines } from "./create-report.js";
import type { PublishResult } from "../ops/publish/publish-file.js";
import { timestampMs } from "../../shared/time/timestamps.js";

/** What `publish` tells a person: link, limits, how to revoke, warnings; the fenced resume last. */
export function formatPublishReport(result: PublishResult, options: { closing?: boolean; now?: Date } = {}): string {
  const now = options.now ?? new Date();
  const left = Math.max(0, Math.round(((timestampMs(result.expires_at) ?? now.getTime()) - now.getTime()) / 1000));
  const lines = [
    `Published ${result.path} (encrypted on this machine; the server holds ciphertext only)`,
    `  share URL: ${result.url}`,
    `  expires: ${result.expires_at} (in ${formatDuration(left)})`,
    `  views: ${result.max_views === null ? "unlimited until expiry" : `${result.max_views} allowed`}`,
    `  scope: ${result.scope === "team" ? "team (only your team's tokens can read it)" : "link (anyone holding the URL)"}`,
    ...(result.passphrase ? ["  passphrase: required (PBKDF2-SHA-256 mixed into the key and the read token; the link alone opens nothing)"] : []),
    `  revoke: ${result.revoke_command}`,
    ...(result.changes
      ? [
          `  changes: ${result.changes.tracked.length + result.changes.untracked.length} files, ${result.changes.total_bytes} bytes sealed with it (payload format 2; the receiver applies them only with --apply-changes)`,
          // Named, never sent: a secret, too large, or forbidden by the active manifest.
          ...result.changes.left_out.map((l) => `  left out: ${oneLine(l.path)}: ${oneLine(l.reason)}`),
        ]
      : []),
    ...redactionLines(result.redaction),
    "",
    "Warnings:",
    ...result.warnings.map((w) => `  - ${w}`),
  ];
  // Under --json nothing follows on stdout that the closing line could introduce.
  if (options.closing !== false) lines.push("", "Resume on any host with:");
  return lines.join("\n");
}
