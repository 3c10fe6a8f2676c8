import * as z from "zod/mini";
import { decodeBase64Url, encodeBase64Url } from "../ids/base64url.js";
import { HandoffError, type Result, err, ok } from "../errors.js";
import { normalizeServerUrl } from "../api/share-url.js";
import { tokenKind } from "../ids/tokens.js";
import { MAX_INTRODUCTIONS, MEMBER_KEY_LENGTH, type MemberIdentity, type MemberKey, SIGNATURE_LENGTH, checkIdentity, memberNameProblem } from "../crypto/member-key.js";
import { TEAM_KEY_ID_LENGTH, TEAM_KEY_LENGTH, type TeamKey, checkTeamKey } from "../crypto/team-key.js";

// A team invite: one string that carries what joining a team needs, bound to its server: the
// team token (authentication, optional in a keys-only invite after a rotation), the team key
// ring (encryption, never sent to the server), the inviter's roster (the members they trust, by
// name and public signing key) and, for a new member, their own signing key, introduced by the
// inviter. It is a secret, passed on stdin, never on argv. Format: docs/storage.md ("The team
// invite"); v1 (no roster, no member key) is still read.

export const INVITE_VERSION = 2;
const prefix = (version: number) => `handoff-invite-v${version}.`;
/** An invite holds at most this many keys (a ring rotated this often is long overdue a clean-up). */
export const MAX_INVITE_KEYS = 32;
/** An invite's roster holds at most this many members. */
export const MAX_INVITE_MEMBERS = 64;
/** An invite is a few thousand characters; more than this is not one. */
export const MAX_INVITE_CHARS = 16_384;

const memberKey = z.string().check(z.length(MEMBER_KEY_LENGTH));
const KeysSchema = z
  .array(z.strictObject({ id: z.string().check(z.length(TEAM_KEY_ID_LENGTH)), key: z.string().check(z.length(TEAM_KEY_LENGTH)) }))
  .check(z.minLength(1, "an invite carries at least one team key"), z.maxLength(MAX_INVITE_KEYS, `an invite carries at most ${MAX_INVITE_KEYS} keys`));
const MemberSchema = z.strictObject({ name: z.string(), key: memberKey });

const InviteV1Schema = z.strictObject({ v: z.literal(1), server: z.string(), team_token: z.optional(z.string()), keys: KeysSchema });
const InviteSchema = z.strictObject({
  v: z.literal(INVITE_VERSION),
  server: z.string(),
  team_token: z.optional(z.string()),
  keys: KeysSchema,
  /** The inviter's roster: the members they trust, themselves included. */
  members: z.array(MemberSchema).check(z.maxLength(MAX_INVITE_MEMBERS, `an invite carries at most ${MAX_INVITE_MEMBERS} members`)),
  /** The new member's own signing key, made by the inviter and introduced by them. */
  member: z.optional(
    z.strictObject({
      name: z.string(),
      key: memberKey,
      secret: memberKey,
      intro: z.array(z.strictObject({ by: memberKey, name: z.string(), key: memberKey, sig: z.string().check(z.length(SIGNATURE_LENGTH)) })).check(z.maxLength(MAX_INTRODUCTIONS)),
    }),
  ),
});

export interface Invite {
  /** The normalised base URL the token and keys are bound to. */
  server: string;
  /** Absent in a keys-only invite (after a rotation: the member keeps their token). */
  team_token?: string;
  /** Newest first: the first one seals new entries. */
  keys: TeamKey[];
  /** The inviter's roster (empty in a v1 invite). */
  members: MemberKey[];
  /** The new member's signing key; absent when the invite gives none (keys only, or v1). */
  member?: MemberIdentity;
}

/**
 * The invite string for `invite` (always the current version).
 *
 * @example
 * ```ts
 * encodeInvite({ server: "https://handoff.example.com", team_token: "hdt_...", keys: [current, older], members: roster, member: bob })
 * // "handoff-invite-v2.eyJ2Ijoy..."
 * ```
 */
export function encodeInvite(invite: Invite): string {
  const body = {
    v: INVITE_VERSION,
    server: invite.server,
    ...(invite.team_token === undefined ? {} : { team_token: invite.team_token }),
    keys: invite.keys.map(({ id, key }) => ({ id, key })),
    members: invite.members.map(({ name, key }) => ({ name, key })),
    ...(invite.member === undefined ? {} : { member: { name: invite.member.name, key: invite.member.key, secret: invite.member.secret, intro: invite.member.intro } }),
  };
  return prefix(INVITE_VERSION) + encodeBase64Url(new TextEncoder().encode(JSON.stringify(body)));
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
  const version = trimmed.startsWith(prefix(INVITE_VERSION)) ? INVITE_VERSION : trimmed.startsWith(prefix(1)) ? 1 : undefined;
  if (version === undefined) {
    return bad(
      /^handoff-invite-v\d+\./.test(trimmed)
        ? `version ${trimmed.slice(16, trimmed.indexOf("."))} is not one this client reads (v1, v${INVITE_VERSION})`
        : `it does not start with '${prefix(INVITE_VERSION)}'`,
    );
  }
  const bytes = decodeBase64Url(trimmed.slice(prefix(version).length));
  if (bytes === undefined) return bad("the part after the prefix is not base64url (was it cut or wrapped?)");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return bad("its content is not JSON (was it cut short?)");
  }
  const parsed = version === 1 ? InviteV1Schema.safeParse(json) : InviteSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return bad(`${issue?.path.join(".") || "content"}: ${issue?.message ?? "invalid"}`);
  }
  const data = parsed.data;
  const server = normalizeServerUrl(data.server, "the invite's server");
  if (!server.ok) return bad(server.error.message);
  if (data.team_token !== undefined && tokenKind(data.team_token) !== "team") return bad("its token is not a team token");
  for (const entry of data.keys) {
    const problem = await checkTeamKey(entry, "the invite");
    if (problem) return bad(problem.message.replace(/^the invite: /, ""));
  }
  const members = "members" in data ? data.members : [];
  for (const member of members) {
    const problem = memberNameProblem(member.name);
    if (problem) return bad(`members: ${problem}`);
  }
  const member = "member" in data ? data.member : undefined;
  if (member !== undefined) {
    const problem = memberNameProblem(member.name) ?? (await checkIdentity(member, "its member key"))?.message;
    if (problem) return bad(problem);
  }
  return ok({ server: server.value, ...(data.team_token === undefined ? {} : { team_token: data.team_token }), keys: data.keys, members, ...(member === undefined ? {} : { member }) });
}
