import * as z from "zod/mini";
import { decodeBase64Url, encodeBase64Url } from "../ids/base64url.js";
import { HandoffError, type Result, err, ok } from "../errors.js";
import { normalizeServerUrl } from "../api/share-url.js";
import { tokenKind } from "../ids/tokens.js";
import { TEAM_KEY_ID_LENGTH, TEAM_KEY_LENGTH, type TeamKey, checkTeamKey } from "./team-key.js";

// A team invite: one string that carries what joining a team needs, bound to its server: the
// team token (authentication, optional in a keys-only invite after a rotation) and the team key
// ring (encryption, never sent to the server). It is a secret, passed on stdin, never on argv.
// Format: docs/storage.md ("The team invite").

export const INVITE_VERSION = 1;
const PREFIX = `handoff-invite-v${INVITE_VERSION}.`;
/** An invite holds at most this many keys (a ring rotated this often is long overdue a clean-up). */
export const MAX_INVITE_KEYS = 32;
/** An invite is a few hundred characters; more than this is not one. */
export const MAX_INVITE_CHARS = 8192;

const InviteSchema = z.strictObject({
  v: z.literal(INVITE_VERSION),
  server: z.string(),
  team_token: z.optional(z.string()),
  keys: z
    .array(z.strictObject({ id: z.string().check(z.length(TEAM_KEY_ID_LENGTH)), key: z.string().check(z.length(TEAM_KEY_LENGTH)) }))
    .check(z.minLength(1, "an invite carries at least one team key"), z.maxLength(MAX_INVITE_KEYS, `an invite carries at most ${MAX_INVITE_KEYS} keys`)),
});

export interface Invite {
  /** The normalised base URL the token and keys are bound to. */
  server: string;
  /** Absent in a keys-only invite (after a rotation: the member keeps their token). */
  team_token?: string;
  /** Newest first: the first one seals new entries. */
  keys: TeamKey[];
}

/**
 * The invite string for `invite`.
 *
 * @example
 * ```ts
 * encodeInvite({ server: "https://handoff.example.com", team_token: "hdt_...", keys: [current, older] })
 * // "handoff-invite-v1.eyJ2Ijox..."
 * ```
 */
export function encodeInvite(invite: Invite): string {
  const body = { v: INVITE_VERSION, server: invite.server, ...(invite.team_token === undefined ? {} : { team_token: invite.team_token }), keys: invite.keys.map(({ id, key }) => ({ id, key })) };
  return PREFIX + encodeBase64Url(new TextEncoder().encode(JSON.stringify(body)));
}

/**
 * Reads an invite string, checking everything it claims: the server URL, the token's kind, and
 * that each key has the right length and the id derived from it. Every problem is an
 * `invalid_document` error that names it and never echoes a secret.
 *
 * @example
 * ```ts
 * const invite = await parseInvite(stdinText);
 * if (!invite.ok) throw invite.error; // "the invite is not 'handoff-invite-v1.<...>': ..."
 * ```
 */
export async function parseInvite(text: string): Promise<Result<Invite>> {
  const trimmed = text.trim();
  const bad = (why: string) =>
    err(
      new HandoffError("invalid_document", `the invite is malformed: ${why}`, { hint: "copy the whole invite again ('handoff team invite' prints it on one line) and pipe it to 'handoff team join'" }),
    );
  if (trimmed.length > MAX_INVITE_CHARS) return bad(`it is ${trimmed.length} characters, more than ${MAX_INVITE_CHARS}`);
  if (!trimmed.startsWith(PREFIX)) {
    return bad(/^handoff-invite-v\d+\./.test(trimmed) ? `version ${trimmed.slice(16, trimmed.indexOf("."))} is not one this client reads (v${INVITE_VERSION})` : `it does not start with '${PREFIX}'`);
  }
  const bytes = decodeBase64Url(trimmed.slice(PREFIX.length));
  if (bytes === undefined) return bad("the part after the prefix is not base64url (was it cut or wrapped?)");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return bad("its content is not JSON (was it cut short?)");
  }
  const parsed = InviteSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return bad(`${issue?.path.join(".") || "content"}: ${issue?.message ?? "invalid"}`);
  }
  const server = normalizeServerUrl(parsed.data.server, "the invite's server");
  if (!server.ok) return bad(server.error.message);
  if (parsed.data.team_token !== undefined && tokenKind(parsed.data.team_token) !== "team") return bad("its token is not a team token");
  for (const entry of parsed.data.keys) {
    const problem = await checkTeamKey(entry, "the invite");
    if (problem) return bad(problem.message.replace(/^the invite: /, ""));
  }
  return ok({ server: server.value, ...(parsed.data.team_token === undefined ? {} : { team_token: parsed.data.team_token }), keys: parsed.data.keys });
}
