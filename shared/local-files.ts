import * as z from "zod";
import { SCOPES } from "./api/limits.js";
import { isHandoffId } from "./handoff-id.js";

/**
 * The CLI's local files, as schemas: the publishing config (`$XDG_CONFIG_HOME/handoff/config.json`)
 * and one record per published handoff (`.../published/<id>.json`). Layouts: docs/storage.md.
 */

/** Tokens go into an Authorization header: visible ASCII only, so a stray newline cannot split it. */
export const TokenSchema = z.string().regex(/^[\x21-\x7e]{1,512}$/, "must be 1 to 512 visible ASCII characters (no spaces or newlines)");

/** `$XDG_CONFIG_HOME/handoff/config.json`. Unknown keys are refused so a typo does not go unnoticed. */
export const ConfigFileSchema = z.strictObject({
  server: z.string().optional(),
  token: TokenSchema.optional(),
  team_token: TokenSchema.optional(),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

const timestamp = z.iso.datetime({ offset: true });

export const PublishedRecordSchema = z.object({
  id: z.string().refine(isHandoffId, "must be a handoff id (22 base64url characters)"),
  server: z.url(),
  /** `<server>/h/<id>` without `#key`; a fragment here is refused so the key cannot slip in. */
  url_without_key: z
    .url()
    .refine((url) => !url.includes("#"), "must not contain '#': the key is never stored")
    .optional(),
  owner_token: z.string().min(1).max(512),
  expires_at: timestamp,
  /** null: no view limit. */
  max_views: z.number().int().positive().nullable(),
  scope: z.enum(SCOPES),
  created_at: timestamp,
  local_path: z.string().optional(),
  title: z.string().optional(),
  revoked_at: timestamp.optional(),
});
export type PublishedRecord = z.infer<typeof PublishedRecordSchema>;
