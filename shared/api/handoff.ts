/** Response bodies about published handoffs: `/meta` and the team listing. */
import { z } from "zod";
import { MAX_VIEWS_LIMIT, SCOPES } from "./publish.js";

/** `GET /v1/handoffs/:id/meta`: what a reader may know before spending a view. */
export const handoffMetaSchema = z.strictObject({
  id: z.string(),
  scope: z.enum(SCOPES),
  /** Body size in bytes (of the ciphertext the server stores). */
  size: z.number().int().nonnegative(),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  max_views: z.number().int().min(1).max(MAX_VIEWS_LIMIT).nullable(),
  views_used: z.number().int().nonnegative(),
  /** null: unlimited until expiry. */
  views_left: z.number().int().nonnegative().nullable(),
});
export type HandoffMeta = z.infer<typeof handoffMetaSchema>;

/** One entry of the team listing. Non-authoritative (from KV): a read may still find it gone. */
export const teamHandoffSchema = z.strictObject({
  id: z.string(),
  url: z.string().startsWith("/h/"),
  size: z.number().int().nonnegative(),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  max_views: z.number().int().min(1).max(MAX_VIEWS_LIMIT).nullable(),
});
export type TeamHandoff = z.infer<typeof teamHandoffSchema>;

/** `GET /v1/team/handoffs`: the caller's team and its live handoffs, newest first. */
export const teamListingSchema = z.strictObject({
  team: z.string(),
  handoffs: z.array(teamHandoffSchema),
});
export type TeamListing = z.infer<typeof teamListingSchema>;

/** `GET /healthz`. */
export const healthSchema = z.strictObject({ ok: z.literal(true) });
