/** Response bodies about published handoffs: `/meta` and the team listing. */
import * as z from "zod/mini";
import { MAX_TEAM_CARD_CHARS } from "../crypto/team-card-shape.js";
import { MAX_VIEWS_LIMIT, SCOPES } from "./publish.js";

/** `GET /v1/handoffs/:id/meta`: what a reader may know before spending a view. */
export const handoffMetaSchema = z.strictObject({
  id: z.string(),
  scope: z.enum(SCOPES),
  /** Body size in bytes (of the ciphertext the server stores). */
  size: z.int().check(z.minimum(0)),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  max_views: z.nullable(z.int().check(z.minimum(1), z.maximum(MAX_VIEWS_LIMIT))),
  views_used: z.int().check(z.minimum(0)),
  /** null: unlimited until expiry. */
  views_left: z.nullable(z.int().check(z.minimum(0))),
  /** Present, and true, only when reading the link needs a passphrase too. */
  passphrase: z.optional(z.literal(true)),
});
export type HandoffMeta = z.infer<typeof handoffMetaSchema>;

/** One entry of the team listing. Non-authoritative (from KV): a read may still find it gone. */
export const teamHandoffSchema = z.strictObject({
  id: z.string(),
  url: z.string().check(z.startsWith("/h/")),
  size: z.int().check(z.minimum(0)),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  max_views: z.nullable(z.int().check(z.minimum(1), z.maximum(MAX_VIEWS_LIMIT))),
  /**
   * The entry's sealed card (`htc1.<key id>.<base64url>`, opaque to the server; docs/storage.md,
   * "The team card"), null for an entry published without one (before team keys, or by a member
   * without the key).
   */
  card: z.nullable(z.string().check(z.maxLength(MAX_TEAM_CARD_CHARS))),
});
export type TeamHandoff = z.infer<typeof teamHandoffSchema>;

/** `GET /v1/team/handoffs`: the caller's team and its live handoffs, newest first. */
export const teamListingSchema = z.strictObject({
  team: z.string(),
  handoffs: z.array(teamHandoffSchema),
});
export type TeamListing = z.infer<typeof teamListingSchema>;

/** A link's state as its owner sees it (`GET /v1/handoffs/:id/views`). */
export const LINK_STATES = ["active", "revoked", "expired", "exhausted"] as const;

/**
 * `GET /v1/handoffs/:id/views` with the owner token: the link's state, views used and left, and
 * when each counted view happened (to the minute, oldest first, the last 20). Nothing about who read.
 */
export const viewLogSchema = z.strictObject({
  id: z.string(),
  state: z.enum(LINK_STATES),
  views_used: z.int().check(z.minimum(0)),
  max_views: z.nullable(z.int().check(z.minimum(1), z.maximum(MAX_VIEWS_LIMIT))),
  /** null: unlimited until expiry. */
  views_left: z.nullable(z.int().check(z.minimum(0))),
  expires_at: z.iso.datetime(),
  revoked_at: z.nullable(z.iso.datetime()),
  view_times: z.array(z.iso.datetime()).check(z.maxLength(20)),
  /**
   * A passphrase link only: its wrong passphrases so far, the wait they imposed (null: none now)
   * and the lock (null: not locked), with the limits that apply (docs/api.md, "Wrong passphrases").
   */
  passphrase: z.optional(
    z.strictObject({
      wrong_passphrases: z.int().check(z.minimum(0)),
      slow_after: z.int().check(z.minimum(1)),
      lock_after: z.int().check(z.minimum(1)),
      judge_after: z.nullable(z.iso.datetime()),
      locked_at: z.nullable(z.iso.datetime()),
    }),
  ),
});
export type ViewLog = z.infer<typeof viewLogSchema>;

/**
 * `GET /healthz`.
 * @internal The response contract docs/api.md gives; no client calls it, so its reader is the worker test.
 */
export const healthSchema = z.strictObject({ ok: z.literal(true) });
