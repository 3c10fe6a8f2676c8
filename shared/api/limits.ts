/**
 * The publishing API's option vocabulary, without zod: the CLI's start-up path parses flags with
 * these and must not load a schema library to do it.
 */
export const SCOPES = ["link", "team"] as const;
export type Scope = (typeof SCOPES)[number];

/** max_views is 1 to this; absent means unlimited views until expiry. */
export const MAX_VIEWS_LIMIT = 1000;

/**
 * Request header of a publish: the owner token the client drew (`hdo_` + 43 characters), so it
 * can keep the token before the link exists; without it the server draws one. Either way the
 * answer's `owner_token` is the link's.
 */
export const OWNER_TOKEN_HEADER = "Handoff-Owner-Token";

/** Response header of a body read: the views left after this one (absent for unlimited links). */
export const VIEWS_LEFT_HEADER = "Handoff-Views-Left";

/** Bounds of expires_in in seconds; the server reads them from its configuration. */
export interface ExpiryBounds {
  min: number;
  max: number;
  default: number;
}

/** The product defaults: 5 minutes to 30 days, 7 days when absent. */
export const DEFAULT_EXPIRY_BOUNDS: ExpiryBounds = { min: 300, max: 2_592_000, default: 604_800 };
