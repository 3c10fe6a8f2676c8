/**
 * The operator API (`/v1/admin/*`, Bearer ADMIN_TOKEN), used by `npm run team`. Team names are
 * lowercase slugs so they are safe in storage keys and logs.
 */
import * as z from "zod/mini";

export const TEAM_NAME = /^[a-z0-9][a-z0-9-]{0,38}$/;

export const teamNameSchema = z.string().check(z.regex(TEAM_NAME, { message: "a team name is 1 to 39 characters: a-z, 0-9 and '-', not starting with '-'" }));

/** `POST /v1/admin/teams` body. */
export const createTeamRequestSchema = z.strictObject({ name: teamNameSchema });

/** `POST /v1/admin/teams/:name/tokens` and `POST /v1/admin/publish-tokens` need no body. */

/** A freshly issued credential. The token is in this answer only; the server keeps its hash (`id`). */
export const issuedTokenSchema = z.strictObject({
  /** The token's id for listing and revoking: its SHA-256, base64url. */
  id: z.string(),
  kind: z.enum(["team", "publish"]),
  /** The team the token belongs to; null for a publish token. */
  team: z.nullable(z.string()),
  token: z.string(),
  created_at: z.iso.datetime(),
});
export type IssuedToken = z.infer<typeof issuedTokenSchema>;

/** `GET /v1/admin/teams`. */
export const teamListSchema = z.strictObject({
  teams: z.array(z.strictObject({ name: teamNameSchema, created_at: z.iso.datetime(), tokens: z.int() })),
});
export type TeamList = z.infer<typeof teamListSchema>;

/** A token's id in the operator API: the SHA-256 of the token, base64url (43 characters). Never the token. */
export const TOKEN_ID = /^[A-Za-z0-9_-]{43}$/;

/** `GET /v1/admin/tokens`: live team and publish tokens, by id (from the operator index). */
export const tokenListSchema = z.strictObject({
  tokens: z.array(
    z.strictObject({
      id: z.string().check(z.regex(TOKEN_ID)),
      kind: z.enum(["team", "publish"]),
      team: z.nullable(teamNameSchema),
      created_at: z.iso.datetime(),
    }),
  ),
});
export type TokenList = z.infer<typeof tokenListSchema>;
