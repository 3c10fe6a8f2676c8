import * as z from "zod/mini";
import { en } from "zod/v4/locales";
import { SCOPES } from "../api/limits.js";
import { isHandoffId } from "../ids/handoff-id.js";

/**
 * The CLI's local files, as schemas: the publishing config (`$XDG_CONFIG_HOME/handoff/config.json`)
 * and one record per published handoff (`.../published/<id>.json`). Layouts: docs/storage.md.
 */

/** The current version of the config file's shape (docs/storage.md, "Local files around publishing"). */
export const CONFIG_VERSION = 4;

/**
 * The schemas, built on first use: every command's start-up reads the config module, and only one
 * that reads the config file or a published record needs them (a bundle loads zod then).
 */
export function localFileSchemas(): LocalFileSchemas {
  schemas ??= buildSchemas();
  return schemas;
}

type LocalFileSchemas = ReturnType<typeof buildSchemas>;
let schemas: LocalFileSchemas | undefined;
let english: ReturnType<typeof en> | undefined;

/**
 * `schema.safeParse(value)`, with zod's own English words for the problems the schemas do not
 * word themselves (the messages quote them), whichever zod flavour the process loaded.
 *
 * @example
 * ```ts
 * checkLocalFile(localFileSchemas().TokenSchema, "a b").success // false
 * ```
 */
export function checkLocalFile<S extends z.ZodMiniType>(schema: S, value: unknown): z.core.util.SafeParseResult<z.output<S>> {
  english ??= en();
  return schema.safeParse(value, { error: english.localeError });
}

function buildSchemas() {
  /** Tokens go into an Authorization header: visible ASCII only, so a stray newline cannot split it. */
  const TokenSchema = z.string().check(z.regex(/^[\x21-\x7e]{1,512}$/, "must be 1 to 512 visible ASCII characters (no spaces or newlines)"));

  /**
   * The first config shape (`config.json` without a `version` key): one server and its tokens. Still
   * read, as one server entry; the tokens are bound to `server` and never sent anywhere else.
   */
  const LegacyConfigFileSchema = z.strictObject({
    server: z.optional(z.string()),
    token: z.optional(TokenSchema),
    team_token: z.optional(TokenSchema),
  });

  /**
   * One key of a team key ring (docs/storage.md, "The team key and its ring"). The shape is checked
   * here; that the id is the one derived from the key is checked when the ring is loaded (it takes
   * WebCrypto, which is asynchronous).
   */
  const TeamKeyEntrySchema = z.strictObject({
    id: z.string().check(z.regex(/^[A-Za-z0-9_-]{12}$/, "must be a 12-character key id")),
    key: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, "must be 43 base64url characters (a 256-bit team key)")),
    /** When this machine added it (joined, or rotated to it). */
    added_at: z.iso.datetime({ offset: true }),
  });

  const memberKey = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, "must be 43 base64url characters (a 256-bit Ed25519 key)"));
  /** One member this machine trusts (docs/storage.md, "Team members and signed cards"). */
  const TeamMemberEntrySchema = z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(100)), key: memberKey, added_at: z.iso.datetime({ offset: true }) });
  /**
   * This machine's own member key for the server's team: its name, key pair and the introductions
   * that lead to it. That the secret gives the key and the chain verifies is checked when it is
   * loaded (WebCrypto, asynchronous).
   */
  const TeamIdentitySchema = z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(100)),
    key: memberKey,
    secret: memberKey,
    intro: z
      .array(z.strictObject({ by: memberKey, name: z.string(), key: memberKey, sig: z.string().check(z.regex(/^[A-Za-z0-9_-]{86}$/, "must be an 86-character signature")) }))
      .check(z.maxLength(4)),
    added_at: z.iso.datetime({ offset: true }),
  });

  /** The credentials for one server: each is sent to that server only; team keys and member keys are never sent. */
  const ServerCredentialsSchema = z.strictObject({
    token: z.optional(TokenSchema),
    team_token: z.optional(TokenSchema),
    /** Config version 3: the team key ring, newest first (the first seals new team entries). */
    team_keys: z.optional(z.array(TeamKeyEntrySchema).check(z.maxLength(32, "holds at most 32 keys"))),
    /** Config version 4: this machine's member key, which signs its team cards. */
    team_identity: z.optional(TeamIdentitySchema),
    /** Config version 4: the members this machine trusts (its roster), by name and public key. */
    team_members: z.optional(z.array(TeamMemberEntrySchema).check(z.maxLength(256, "holds at most 256 members"))),
  });

  /**
   * Config version 2: several servers, each with its own tokens, keyed by the server's base URL;
   * `default_server` is where `publish` goes when neither `--server` nor `HANDOFF_SERVER` says.
   *
   * @example
   * ```json
   * { "version": 2, "default_server": "https://handoff.example.com",
   *   "servers": { "https://handoff.example.com": { "token": "hdp_...", "team_token": "hdt_..." } } }
   * ```
   */
  const ConfigFileV2Schema = z
    .strictObject({
      /** 2, 3 (adds `team_keys`) or 4 (adds `team_identity`, `team_members`); this client writes 4. */
      version: z.union([z.literal(2), z.literal(3), z.literal(CONFIG_VERSION)]),
      default_server: z.optional(z.string()),
      servers: z._default(z.record(z.string(), ServerCredentialsSchema), {}),
      /** false turns off `handoff hook`'s automatic handoffs (HANDOFF_AUTO overrides it). */
      auto_handoffs: z.optional(z.boolean()),
    })
    .check(
      z.refine((config) => config.version !== 2 || Object.values(config.servers).every((entry) => entry.team_keys === undefined), {
        message: `team_keys needs "version": 3 or later`,
        path: ["version"],
      }),
      z.refine((config) => config.version === CONFIG_VERSION || Object.values(config.servers).every((entry) => entry.team_identity === undefined && entry.team_members === undefined), {
        message: `team_identity and team_members need "version": ${CONFIG_VERSION}`,
        path: ["version"],
      }),
    );

  /** `$XDG_CONFIG_HOME/handoff/config.json`, either shape. Unknown keys are refused so a typo does not go unnoticed. */
  const ConfigFileSchema = z.union([ConfigFileV2Schema, LegacyConfigFileSchema]);

  // zod's own check, kept on purpose: it agrees with checkRfc3339 (shared/time/timestamps.ts) on every
  // shape but second 60, which it refuses; a record's times are compared with the clock, and a leap
  // second is an instant Date cannot hold. Written by recordTimestamp; the server's expires_at alike.
  const timestamp = z.iso.datetime({ offset: true });

  const PublishedRecordSchema = z.object({
    id: z.string().check(z.refine(isHandoffId, "must be a handoff id (22 base64url characters)")),
    server: z.url(),
    /** `<server>/h/<id>` without `#key`; a fragment here is refused so the key cannot slip in. */
    url_without_key: z.optional(z.url().check(z.refine((url) => !url.includes("#"), "must not contain '#': the key is never stored"))),
    owner_token: z.string().check(z.minLength(1), z.maxLength(512)),
    expires_at: timestamp,
    /** null: no view limit. */
    max_views: z.nullable(z.number().check(z.int(), z.positive())),
    scope: z.enum(SCOPES),
    created_at: timestamp,
    local_path: z.optional(z.string()),
    title: z.optional(z.string()),
    revoked_at: z.optional(timestamp),
    /**
     * Written before the publish request, so its owner token is kept before the link can exist;
     * dropped when the record is completed from the server's answer. `expires_at` is then an
     * upper bound, not the server's.
     */
    pending: z.optional(z.literal(true)),
  });

  /**
   * A share link `resume` opened, kept decrypted on this machine (`<store root>/opened/<id>.json`,
   * 0600) until `keep_until`, so a preview, a fix and an apply spend one view (docs/storage.md,
   * "Opened share links"). `key_sha256` ties it to the link's own key: another link with the same
   * id never reads it.
   */
  const OpenedCopySchema = z.strictObject({
    format: z.literal("handoff-opened/v1"),
    id: z.string().check(z.refine(isHandoffId, "must be a handoff id (22 base64url characters)")),
    server: z.url(),
    key_sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/, "must be 64 hex characters")),
    opened_at: timestamp,
    keep_until: timestamp,
    /** What the read that opened it left; null: no view limit. */
    views_left: z.nullable(z.number().check(z.int(), z.nonnegative())),
    document: z.base64(),
    changes: z.optional(z.base64()),
  });
  return {
    TokenSchema,
    LegacyConfigFileSchema,
    TeamKeyEntrySchema,
    TeamMemberEntrySchema,
    TeamIdentitySchema,
    ServerCredentialsSchema,
    ConfigFileV2Schema,
    ConfigFileSchema,
    PublishedRecordSchema,
    OpenedCopySchema,
  };
}

export type ConfigFileV2 = z.infer<LocalFileSchemas["ConfigFileV2Schema"]>;
export type ConfigFile = z.infer<LocalFileSchemas["ConfigFileSchema"]>;
export type TeamKeyEntry = z.infer<LocalFileSchemas["TeamKeyEntrySchema"]>;
export type TeamMemberEntry = z.infer<LocalFileSchemas["TeamMemberEntrySchema"]>;
export type PublishedRecord = z.infer<LocalFileSchemas["PublishedRecordSchema"]>;
export type OpenedCopyRecord = z.infer<LocalFileSchemas["OpenedCopySchema"]>;
