import { MAX_VIEWS_LIMIT, SCOPES, type Scope } from "../../shared/api/limits.js";
import { parseDuration } from "../../shared/time/duration.js";
import { HandoffError } from "../../shared/errors.js";
import { intFlag } from "./args.js";

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
  // Each server has its own --expires bounds: it judges them, and a refused value is dropped
  // from the retry it prints (publish-file.ts). --max-views' bounds are the API's, checked here.
  if (values.expires !== undefined) flags.expiresIn = parseDuration(values.expires, "--expires");
  if (values.server !== undefined) flags.server = values.server;
  return flags;
}
