import { Hono } from "hono";
import type { AppEnv } from "./bindings.js";
import { addPublishToken, addTeamToken, createTeam, listTeams, listTokens, revokeToken } from "./handlers/admin.js";
import { health } from "./handlers/health.js";
import { landing } from "./handlers/landing.js";
import { publishHandoff } from "./handlers/publish.js";
import { readHandoff, readHandoffMeta } from "./handlers/read.js";
import { revokeHandoff } from "./handlers/revoke.js";
import { readerAsset, sharePage } from "./handlers/share-page.js";
import { listTeamHandoffs } from "./handlers/team.js";
import { readViewLog, unlockHandoff } from "./handlers/view-log.js";
import { notFound, onError } from "./http/errors.js";
import { rateLimited } from "./http/rate-limit.js";
import { securityHeaders } from "./http/security-headers.js";

/** The HTTP API (docs/api.md): routes to named handlers, one error path, headers on everything. */
export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", securityHeaders);
  app.onError(onError);
  app.notFound(notFound);

  // Every route that reaches storage counts against its client first (rateLimited runs before
  // the handler, so before any credential lookup): writes on the publish limiter, reads on the
  // read limiter.
  const write = rateLimited("PUBLISH_LIMITER");
  const read = rateLimited("READ_LIMITER");
  app.get("/", landing);
  app.get("/healthz", health);
  app.post("/v1/handoffs", write, publishHandoff);
  app.get("/v1/handoffs/:id", read, readHandoff);
  app.get("/v1/handoffs/:id/meta", read, readHandoffMeta);
  app.get("/v1/handoffs/:id/views", read, readViewLog);
  app.delete("/v1/handoffs/:id", write, revokeHandoff);
  app.post("/v1/handoffs/:id/unlock", write, unlockHandoff);
  app.get("/v1/team/handoffs", read, listTeamHandoffs);
  app.get("/h/:id", sharePage);
  app.get("/h/assets/:file", readerAsset);

  // Guessing the operator token is rate limited like any write.
  app.post("/v1/admin/teams", write, createTeam);
  app.get("/v1/admin/teams", write, listTeams);
  app.post("/v1/admin/teams/:name/tokens", write, addTeamToken);
  app.post("/v1/admin/publish-tokens", write, addPublishToken);
  app.get("/v1/admin/tokens", write, listTokens);
  app.delete("/v1/admin/tokens/:id", write, revokeToken);
  return app;
}
