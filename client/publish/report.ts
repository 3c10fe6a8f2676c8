import { formatDuration } from "../../shared/duration.js";
import { fencedCommand, redactionLines } from "../output.js";
import type { PublishResult } from "./publish-file.js";
import { stringifyForTerminal } from "../../shared/terminal-safe.js";

/** What `publish` tells a person: link, limits, how to revoke, warnings; the fenced resume last. */
export function formatPublishReport(result: PublishResult, now: Date = new Date()): string {
  const left = Math.max(0, Math.round((Date.parse(result.expires_at) - now.getTime()) / 1000));
  const lines = [
    `Published ${result.path} (encrypted on this machine; the server holds ciphertext only)`,
    `  share URL: ${result.url}`,
    `  expires: ${result.expires_at} (in ${formatDuration(left)})`,
    `  views: ${result.max_views === null ? "unlimited until expiry" : `${result.max_views} allowed`}`,
    `  scope: ${result.scope === "team" ? "team (only your team's tokens can read it)" : "link (anyone holding the URL)"}`,
    `  revoke: ${result.revoke_command}`,
    ...redactionLines(result.redaction),
    "",
    "Warnings:",
    ...result.warnings.map((w) => `  - ${w}`),
    "",
    "Resume on any host with:",
  ];
  return lines.join("\n");
}

export function publishStdout(result: PublishResult, json: boolean): string {
  if (json) {
    const { path, url, expires_at, max_views, scope, warnings, resume_command, id, revoke_command, redaction } = result;
    return stringifyForTerminal({ path, url, expires_at, max_views, scope, warnings, resume_command, id, revoke_command, redaction });
  }
  return fencedCommand(result.resume_command);
}
