/**
 * `POST /v1/handoffs`: its query options and its 201 body. The worker parses the options with
 * `parsePublishOptions`; the CLI can run the same check before sending, and validates the answer
 * with `publishResponseSchema`.
 *
 * The API schemas use zod 4's tree-shakable "mini" build: the worker bundles them, and the
 * classic build would triple the worker's size (bench/worker-bundle.bench.js). They parse the same
 * way: `publishResponseSchema.parse(json)`.
 */
import * as z from "zod/mini";
import { err, HandoffError, ok, type Result } from "../errors.js";

import { MAX_VIEWS_LIMIT, SCOPES, type Scope } from "./limits.js";

export { DEFAULT_EXPIRY_BOUNDS, type ExpiryBounds, MAX_VIEWS_LIMIT, SCOPES, type Scope } from "./limits.js";
import type { ExpiryBounds } from "./limits.js";

export interface PublishOptions {
  expiresIn: number;
  /** null: unlimited views until expiry. */
  maxViews: number | null;
  scope: Scope;
}

const wholeNumber = /^\d{1,10}$/;

function intOption(name: string, min: number, max: number) {
  return z.string().check(
    z.refine((text) => wholeNumber.test(text) && Number(text) >= min && Number(text) <= max, {
      message: `${name} must be a whole number from ${min} to ${max}`,
    }),
  );
}

/**
 * Checks the publish query options against `bounds`. An unknown option, a value out of range or
 * a malformed one is an `invalid_option` error that names the option.
 *
 * @example
 * ```ts
 * parsePublishOptions({ expires_in: "3600", max_views: "2" }, DEFAULT_EXPIRY_BOUNDS)
 * // { ok: true, value: { expiresIn: 3600, maxViews: 2, scope: "link" } }
 * parsePublishOptions({ max_views: "0" }, DEFAULT_EXPIRY_BOUNDS)
 * // { ok: false, error: HandoffError("invalid_option", "max_views must be a whole number from 1 to 1000, got '0'") }
 * ```
 */
export function parsePublishOptions(query: Record<string, string>, bounds: ExpiryBounds): Result<PublishOptions> {
  const schema = z.strictObject({
    expires_in: z.optional(intOption("expires_in", bounds.min, bounds.max)),
    max_views: z.optional(intOption("max_views", 1, MAX_VIEWS_LIMIT)),
    scope: z.optional(z.enum(SCOPES, { error: "scope must be 'link' or 'team'" })),
  });
  const parsed = schema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option = issue.code === "unrecognized_keys" ? String(issue.keys[0]) : String(issue.path[0]);
    const message = issue.code === "unrecognized_keys" ? `unknown option '${option}' (known: expires_in, max_views, scope)` : `${issue.message}, got '${query[option] ?? ""}'`;
    return err(new HandoffError("invalid_option", message, { details: { option } }));
  }
  const { expires_in, max_views, scope } = parsed.data;
  return ok({
    expiresIn: expires_in === undefined ? bounds.default : Number(expires_in),
    maxViews: max_views === undefined ? null : Number(max_views),
    scope: scope ?? "link",
  });
}

export const RETENTION_POLICIES = ["delete-at-expiry", "delete-at-expiry-or-last-view"] as const;

/** The 201 body of a publish. `owner_token` is shown once; the server keeps only its hash. */
export const publishResponseSchema = z.strictObject({
  id: z.string(),
  /** The share link's path, `/h/<id>`; the client adds the origin and the `#key` fragment. */
  url: z.string().check(z.startsWith("/h/")),
  expires_at: z.iso.datetime(),
  max_views: z.nullable(z.int().check(z.minimum(1), z.maximum(MAX_VIEWS_LIMIT))),
  scope: z.enum(SCOPES),
  owner_token: z.string(),
  retention: z.strictObject({
    policy: z.enum(RETENTION_POLICIES),
    /** When the body is deleted at the latest (the expiry). */
    delete_after: z.iso.datetime(),
  }),
});
export type PublishResponse = z.infer<typeof publishResponseSchema>;
