import { HandoffError } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/tokens.js";
import type { AppContext } from "../bindings.js";
import { sharePageCsp, sharePageHtml } from "../page/share-page.js";

/** `GET /h/:id`: the static share page; no storage read, no view counted. */
export async function sharePage(c: AppContext): Promise<Response> {
  const id = c.req.param("id") ?? "";
  if (!isHandoffId(id)) throw new HandoffError("not_found", "no handoff with this id");
  return c.html(sharePageHtml(id), 200, { "Content-Security-Policy": await sharePageCsp() });
}
