import { Hono } from "hono";
import type { AppEnv } from "./bindings.js";
import { addPublishToken, addTeamToken, createTeam, listTeams } from "./handlers/admin.js";
import { health } from "./handlers/health.js";
import { publishHandoff } from "./handlers/publish.js";
import { readHandoff, readHandoffMeta } from "./handlers/read.js";
import { revokeHandoff } from "./handlers/revoke.js";
import { readerAsset, sharePage } from "./handlers/share-page.js";
import { listTeamHandoffs } from "./handlers/team.js";
import { notFound, onError } from "./http/errors.js";
import { securityHeaders } from "./http/security-headers.js";

/** The HTTP API (docs/api.md): routes to named handlers, one error path, headers on everything. */
export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", securityHeaders);
  app.onError(onError);
  app.notFound(notFound);

  app.get("/healthz", health);
  app.post("/v1/handoffs", publishHandoff);
  app.get("/v1/handoffs/:id", readHandoff);
  app.get("/v1/handoffs/:id/meta", readHandoffMeta);
  app.delete("/v1/handoffs/:id", revokeHandoff);
  app.get("/v1/team/handoffs", listTeamHandoffs);
  app.get("/h/:id", sharePage);
  app.get("/h/assets/:file", readerAsset);

  app.post("/v1/admin/teams", createTeam);
  app.get("/v1/admin/teams", listTeams);
  app.post("/v1/admin/teams/:name/tokens", addTeamToken);
  app.post("/v1/admin/publish-tokens", addPublishToken);
  return app;
}
