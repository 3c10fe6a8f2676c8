import { MAX_VIEWS_LIMIT, SCOPES, type Scope } from "../../shared/api/limits.js";
import { parseDuration } from "../../shared/duration.js";
import { HandoffError } from "../../shared/errors.js";
import { intFlag } from "../args.js";

/** The publishing flags `publish` and `create --publish` share, parsed once. */
export const PUBLISH_FLAGS = {
  expires: { type: "string" },
  "max-views": { type: "string" },
  scope: { type: "string" },
  server: { type: "string" },
} as const;

export const PUBLISH_FLAGS_HELP = `  --expires D      How long the link lives: 30m, 12h, 7d (server default 7d; 5m to 30d).
  --max-views N    Views allowed, 1 to ${MAX_VIEWS_LIMIT} (default: unlimited until expiry).
  --scope S        link (anyone with the URL, the default) or team (your team's tokens only).
  --server URL     Publishing server (else HANDOFF_SERVER, else "server" in the config file).`;

export interface PublishFlagValues {
  expiresIn?: number;
  maxViews: number | null;
  scope: Scope;
  server?: string;
}

export function readPublishFlags(values: { expires?: string; "max-views"?: string; scope?: string; server?: string }): PublishFlagValues {
  const scope = values.scope ?? "link";
  if (!(SCOPES as readonly string[]).includes(scope)) {
    throw new HandoffError("usage", `--scope must be link or team, got '${scope}'`, { hint: "pass --scope link or --scope team" });
  }
  const flags: PublishFlagValues = { maxViews: intFlag("max-views", values["max-views"], 1, MAX_VIEWS_LIMIT) ?? null, scope: scope as Scope };
  if (values.expires !== undefined) flags.expiresIn = parseDuration(values.expires, "--expires");
  if (values.server !== undefined) flags.server = values.server;
  return flags;
}
