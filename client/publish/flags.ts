import { DEFAULT_EXPIRY_BOUNDS, MAX_VIEWS_LIMIT, SCOPES, type Scope } from "../../shared/api/limits.js";
import { formatDuration, parseDuration } from "../../shared/duration.js";
import { HandoffError } from "../../shared/errors.js";
import { intFlag } from "../args.js";

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
  if (values.expires !== undefined) {
    const seconds = parseDuration(values.expires, "--expires");
    // The default server's bounds, checked here so a refused value is never written into a retry hint.
    const { min, max } = DEFAULT_EXPIRY_BOUNDS;
    if (seconds < min || seconds > max) {
      throw new HandoffError("invalid_option", `--expires ${values.expires} is outside ${formatDuration(min)} to ${formatDuration(max)}`, {
        hint: `pass a lifetime from ${formatDuration(min)} to ${formatDuration(max)}, like --expires 12h`,
      });
    }
    flags.expiresIn = seconds;
  }
  if (values.server !== undefined) flags.server = values.server;
  return flags;
}
