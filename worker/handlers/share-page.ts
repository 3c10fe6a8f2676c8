import { HandoffError } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/tokens.js";
import type { AppContext } from "../bindings.js";
import { READER_ASSET, READER_SCRIPT } from "../page/reader-bundle.generated.js";
import { sharePageCsp, sharePageHtml } from "../page/share-page.js";

/** `GET /h/:id`: the share page; no storage read, no view counted (its script asks for both). */
export async function sharePage(c: AppContext): Promise<Response> {
  const id = c.req.param("id") ?? "";
  if (!isHandoffId(id)) throw new HandoffError("not_found", "no handoff with this id");
  return c.html(sharePageHtml(id), 200, { "Content-Security-Policy": await sharePageCsp() });
}

/** `GET /h/assets/:file`: the reader script under its hashed name; any other name is a 404. */
export function readerAsset(c: AppContext): Response {
  if (c.req.param("file") !== READER_ASSET) throw new HandoffError("not_found", "no such asset");
  return c.body(READER_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8" });
}
