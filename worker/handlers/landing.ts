import type { AppContext } from "../bindings.js";
import { readConfig } from "../config.js";
import { LANDING_CACHE_CONTROL, landingPageCsp, landingPageHtml } from "../page/landing-page.js";

/** `GET /`: what this server is and how to point the CLI at it; no storage read, nothing stored named. */
export async function landing(c: AppContext): Promise<Response> {
  const facts = { origin: new URL(c.req.url).origin, anonymousPublish: readConfig(c.env).allowAnonymousPublish };
  return c.html(landingPageHtml(facts), 200, { "Content-Security-Policy": await landingPageCsp(), "Cache-Control": LANDING_CACHE_CONTROL });
}
