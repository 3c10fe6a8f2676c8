import { MAX_VIEWS_LIMIT } from "../../shared/api/limits.js";
import type { FlagSpecs } from "./command.js";

/** Flag declarations and help notes that more than one command's spec.ts uses (data only). */

export const PUBLISH_FLAGS = {
  expires: { type: "string", value: "D", description: "How long the link lives: 30m, 12h, 7d, 1w (server default 7d; 5m to 30d)." },
  "max-views": { type: "string", value: "N", description: `Views allowed, 1 to ${MAX_VIEWS_LIMIT} (default: unlimited until expiry).` },
  scope: { type: "string", value: "S", choices: ["link", "team"], description: "link (anyone with the URL, the default) or team (your team's tokens only)." },
  server: { type: "string", value: "URL", description: "Publishing server (else HANDOFF_SERVER, else the config file's default server); tokens go only to the server they are bound to." },
} as const satisfies FlagSpecs;

export const WITH_CHANGES = {
  type: "boolean",
  description:
    "Also capture the uncommitted work (tracked changes against HEAD, binary-safe, and untracked files that are not ignored; at most 200 files, 256 KiB a file, 512 KiB in all): scanned for secrets first (as it decodes), a file with one is left out and named, and archives or binary data the scan cannot read are refused unless --allow-unscanned. Kept beside the handoff (0600) and, published, sealed in the same envelope. Applied only on request: handoff resume SOURCE --apply-changes.",
} as const;

/** With --with-changes: what the secret scan cannot read is refused unless the sender says so. */
export const ALLOW_UNSCANNED = {
  type: "boolean",
  requires: ["with-changes"],
  description:
    "With --with-changes: also send files the secret scan cannot read (zip, tar, 7z and other archives, images, other binary data), which are otherwise refused and named (exit 1, nothing written). Their plain text is still scanned; check them yourself first.",
} as const;

export const NO_REDACT = { type: "boolean", description: "Do not replace secrets by [REDACTED:<rule>] (prints a warning)." } as const;

export const SERVER_ENV = `Environment: HANDOFF_SERVER, HANDOFF_TOKEN, HANDOFF_TEAM_TOKEN (over the config file; the tokens
are bound to HANDOFF_SERVER and unused without it: a token is only ever sent to its own server);
HANDOFF_HTTP_TIMEOUT_MS overrides how long to wait for the server (default 20000 to publish,
15000 to read, revoke or list).`;

/** Flags every command takes. */
export const COMMON_FLAGS = {
  json: { type: "boolean", description: "Print the result object as JSON on stdout." },
  quiet: { type: "boolean", short: "q", description: "Print only the result: no summaries, notes or warnings on stderr (errors still)." },
  verbose: { type: "boolean", description: "Show internal causes of errors." },
  help: { type: "boolean", short: "h", description: "Show this help." },
} as const satisfies FlagSpecs;
