import { HandoffError } from "../../shared/errors.js";
import { isHandoffId } from "../../shared/ids/handoff-id.js";
import type { AppContext } from "../bindings.js";
import { READER_ASSET, sharePageCsp, sharePageHtml } from "../page/share-page.js";

/** `GET /h/:id`: the share page; no storage read, no view counted (its script asks for both). */
export async function sharePage(c: AppContext): Promise<Response> {
  const id = c.req.param("id") ?? "";
  if (!isHandoffId(id)) throw new HandoffError("not_found", "no handoff with this id");
  return c.html(sharePageHtml(id), 200, { "Content-Security-Policy": await sharePageCsp() });
}

/**
 * `GET /h/assets/reader.js`: the reader script from the static assets, under the worker's own
 * headers (the middleware adds them); any other name is a 404.
 */
export async function readerAsset(c: AppContext): Promise<Response> {
  if (c.req.param("file") !== READER_ASSET) throw new HandoffError("not_found", "no such asset");
  const asset = await c.env.ASSETS.fetch(new URL(`/${READER_ASSET}`, c.req.url));
  if (!asset.ok) {
    await asset.body?.cancel();
    // A deployment without `npm run build:reader` first: a setup fault, logged by onError.
    throw new HandoffError("internal", `the reader asset is missing (HTTP ${asset.status}): run npm run build:reader before deploying`);
  }
  return c.body(await asset.arrayBuffer(), 200, { "Content-Type": "text/javascript; charset=utf-8" });
}
