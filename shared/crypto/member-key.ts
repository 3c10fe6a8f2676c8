import { decodeBase64Url, encodeBase64Url } from "../ids/base64url.js";
import { HandoffError } from "../errors.js";

// A team member's signing key: Ed25519 through WebCrypto, made on a client and never sent to the
// server. Each member signs the team cards they publish; teammates check the signature against
// the keys they trust. Trust travels with invites: an invite carries the inviter's roster (the
// members they trust, by name and public key) and the new member's own key, introduced by the
// inviter (a signed statement "this key is <name>"). A card's signer carries its chain of
// introductions, so a teammate who trusts any introducer on it can check it. Format and limits:
// docs/storage.md ("Team members and signed cards").

/** Characters of a key (public, or the private seed) in base64url: 32 bytes. */
export const MEMBER_KEY_LENGTH = 43;
/** Characters of an Ed25519 signature in base64url: 64 bytes. */
export const SIGNATURE_LENGTH = 86;
/** The longest member name (the team card's `publisher` has the same limit). */
export const MAX_MEMBER_NAME_CHARS = 100;
/** A chain keeps its last this many introductions: the card carries it, and a card is small. */
export const MAX_INTRODUCTIONS = 4;

const ED25519 = { name: "Ed25519" } as const;
/** PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410): WebCrypto imports private keys as PKCS#8, not raw. */
const PKCS8_PREFIX = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);
const INTRO_LABEL = "handoff member intro v1";

/** A member as a teammate knows them: the name they are introduced by, and their public key. */
export interface MemberKey {
  name: string;
  /** The Ed25519 public key, base64url (43 characters). */
  key: string;
}

/** "`by` says: `key` is `name`", signed with the key `by`. */
export interface Introduction {
  by: string;
  name: string;
  key: string;
  sig: string;
}

/** This machine's own member key: the name it was introduced by, the key pair, and how it was introduced (root first). */
export interface MemberIdentity extends MemberKey {
  /** The private seed, base64url (43 characters): never sent anywhere. */
  secret: string;
  /** Root first; empty for a member who introduced themselves (the team's first). */
  intro: Introduction[];
}

/** How a card's signer checks out against a roster. */
export type SignerCheck =
  | { state: "verified"; signer: string; introduced_by: string[] }
  | { state: "unverified"; reason: "no_signature" | "unknown_key" | "bad_signature" | "wrong_name"; problem: string };

/**
 * Why `name` cannot be a member's name, or undefined: 1 to 100 characters, no control
 * characters, not blank, no surrounding spaces.
 *
 * @example
 * ```ts
 * memberNameProblem("ana") // undefined
 * memberNameProblem("") // "a member's name is empty"
 * ```
 */
export function memberNameProblem(name: string): string | undefined {
  if (name.trim() === "") return "a member's name is empty";
  if (name !== name.trim()) return "a member's name has spaces around it";
  if (name.length > MAX_MEMBER_NAME_CHARS) return `a member's name is longer than ${MAX_MEMBER_NAME_CHARS} characters`;
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) return "a member's name holds a control character";
  return undefined;
}

/**
 * A fresh member key named `name`; introduced by `introducer` when given (its chain, then its
 * own introduction of the new key, the last `MAX_INTRODUCTIONS` kept), else self-rooted (a team's
 * first member, or one from before member keys).
 *
 * @example
 * ```ts
 * const ana = await newMemberIdentity("ana"); // a team's first member
 * const bob = await newMemberIdentity("bob", ana); // bob.intro: [ana says: bob's key is "bob"]
 * ```
 */
export async function newMemberIdentity(name: string, introducer?: MemberIdentity): Promise<MemberIdentity> {
  const problem = memberNameProblem(name);
  if (problem) throw new HandoffError("invalid_option", problem, { hint: "name the member as teammates know them, e.g. --member ana" });
  const secret = encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const key = await publicKeyOf(secret);
  if (introducer === undefined) return { name, key, secret, intro: [] };
  const link = await introduce(introducer, { name, key });
  return { name, key, secret, intro: [...introducer.intro, link].slice(-MAX_INTRODUCTIONS) };
}

/**
 * The public key of a private seed; throws `invalid_document` for a seed that is not 32 bytes.
 *
 * @example
 * ```ts
 * await publicKeyOf(identity.secret) === identity.key // true for an intact identity
 * ```
 */
export async function publicKeyOf(secret: string): Promise<string> {
  const jwk = (await crypto.subtle.exportKey("jwk", await privateKey(secret))) as { x?: unknown };
  if (typeof jwk.x !== "string") throw new HandoffError("internal", "the platform did not export the public half of an Ed25519 key");
  return jwk.x;
}

/**
 * Signs `bytes` with `identity`'s key (Ed25519, base64url).
 *
 * @example
 * ```ts
 * const sig = await signBytes(identity, new TextEncoder().encode("..."));
 * ```
 */
export async function signBytes(identity: Pick<MemberIdentity, "secret">, bytes: Uint8Array): Promise<string> {
  return encodeBase64Url(new Uint8Array(await crypto.subtle.sign(ED25519, await privateKey(identity.secret), bytes.slice())));
}

/**
 * Whether `sig` is `key`'s Ed25519 signature of `bytes`. False, never a throw, for a malformed
 * key or signature: a forger's input is never an error.
 *
 * @example
 * ```ts
 * await verifyBytes(identity.key, bytes, await signBytes(identity, bytes)) // true
 * ```
 */
export async function verifyBytes(key: string, bytes: Uint8Array, sig: string): Promise<boolean> {
  const raw = key.length === MEMBER_KEY_LENGTH ? decodeBase64Url(key) : undefined;
  const signature = sig.length === SIGNATURE_LENGTH ? decodeBase64Url(sig) : undefined;
  if (raw?.length !== 32 || signature?.length !== 64) return false;
  try {
    const publicKey = await crypto.subtle.importKey("raw", raw, ED25519, false, ["verify"]);
    return await crypto.subtle.verify(ED25519, publicKey, signature, bytes.slice());
  } catch {
    return false;
  }
}

/**
 * Checks that `identity`'s secret gives its public key and its chain verifies link by link; `where`
 * names it in the message.
 *
 * @example
 * ```ts
 * const bad = await checkIdentity(identity, "the member key in config.json");
 * if (bad) throw bad;
 * ```
 */
export async function checkIdentity(identity: MemberIdentity, where: string): Promise<HandoffError | undefined> {
  const hint = "copy the invite again and join with it, or remove the member key from the file";
  let key: string;
  try {
    key = await publicKeyOf(identity.secret);
  } catch {
    return new HandoffError("invalid_document", `${where}: the member key's secret is not 43 base64url characters`, { hint });
  }
  if (key !== identity.key) return new HandoffError("invalid_document", `${where}: the member key's secret and public key do not match (one was changed)`, { hint });
  const chain = await checkChain(identity.intro, identity);
  if (chain !== undefined) return new HandoffError("invalid_document", `${where}: ${chain}`, { hint });
  return undefined;
}

/**
 * How the signer of a card checks out against `roster` (the members this machine trusts), for a
 * card that claims `claimed` as its publisher:
 * - its key in the roster: verified when the roster's name for it is `claimed`, else wrong_name;
 * - else its chain of introductions, from the last introducer the roster holds, each link signed
 *   by the key before it and ending in the signer's key and `claimed`: verified, naming who
 *   introduced it; a chain no roster key starts is unknown_key, a link that does not verify
 *   bad_signature, a name the roster gives another key wrong_name.
 *
 * @example
 * ```ts
 * await checkSigner({ key: bob.key, intro: bob.intro }, "bob", [{ name: "ana", key: ana.key }])
 * // { state: "verified", signer: "bob", introduced_by: ["ana"] }
 * ```
 */
export async function checkSigner(signer: { key: string; intro: readonly Introduction[] }, claimed: string, roster: readonly MemberKey[]): Promise<SignerCheck> {
  const unverified = (reason: Extract<SignerCheck, { state: "unverified" }>["reason"], problem: string): SignerCheck => ({ state: "unverified", reason, problem });
  const known = roster.find((m) => m.key === signer.key);
  if (known !== undefined) {
    return known.name === claimed
      ? { state: "verified", signer: claimed, introduced_by: [] }
      : unverified("wrong_name", `it names ${claimed} as its publisher, but it is signed with ${known.name}'s key`);
  }
  const last = signer.intro.at(-1);
  if (last === undefined || last.key !== signer.key) return unverified("unknown_key", "signed by an unknown key");
  if (last.name !== claimed) return unverified("wrong_name", `it names ${claimed} as its publisher, but its key was introduced as ${last.name}`);
  // The link nearest the signer whose introducer this machine trusts starts the check.
  let start = -1;
  for (let i = signer.intro.length - 1; i >= 0 && start === -1; i--) if (roster.some((m) => m.key === signer.intro[i]!.by)) start = i;
  if (start === -1) return unverified("unknown_key", "signed by an unknown key (introduced by no one this machine knows)");
  const chain = signer.intro.slice(start);
  const broken = await checkChain(chain);
  if (broken !== undefined) return unverified("bad_signature", broken);
  for (const link of chain) {
    const other = roster.find((m) => m.name === link.name && m.key !== link.key);
    if (other !== undefined) return unverified("wrong_name", `it claims the name ${link.name}, which this machine knows with another key`);
  }
  const root = roster.find((m) => m.key === chain[0]!.by)!;
  const introducers = [root.name, ...chain.slice(0, -1).map((link) => link.name)];
  return { state: "verified", signer: claimed, introduced_by: introducers.reverse() };
}

/**
 * Who a readable team card is from, in words: its signer only when the signature checks out, else
 * why it is unverified. Never "from <name>" for an unverified card.
 *
 * @example
 * ```ts
 * signatureWords({ state: "verified", signer: "bob", introduced_by: ["ana"] }) // "from bob, introduced by ana"
 * signatureWords({ state: "unverified", reason: "unknown_key", problem: "..." }) // "unverified: signed by an unknown key"
 * ```
 */
export function signatureWords(check: SignerCheck | null): string {
  if (check?.state === "verified") return `from ${check.signer}${check.introduced_by.length > 0 ? `, introduced by ${check.introduced_by[0]}` : ""}`;
  if (check === null || check.reason === "no_signature") return "unverified: no signature";
  if (check.reason === "unknown_key") return "unverified: signed by an unknown key";
  return `unverified: ${check.problem}`;
}

/** Why a chain does not hold (a link not signed by the key before it, or not by its `by`), or undefined. `end`: the key it must end in. */
async function checkChain(chain: readonly Introduction[], end?: MemberKey): Promise<string | undefined> {
  for (const [i, link] of chain.entries()) {
    if (i > 0 && link.by !== chain[i - 1]!.key) return `introduction ${i + 1} of its chain is not by the key the one before introduced`;
    if (!(await verifyBytes(link.by, introStatement(link), link.sig))) return `introduction ${i + 1} of its chain does not verify: forged or changed`;
  }
  const last = chain.at(-1);
  if (end !== undefined && last !== undefined && (last.key !== end.key || last.name !== end.name)) return "its chain of introductions ends in another key or name";
  return undefined;
}

async function introduce(introducer: MemberIdentity, member: MemberKey): Promise<Introduction> {
  const link = { by: introducer.key, name: member.name, key: member.key };
  return { ...link, sig: await signBytes(introducer, introStatement(link)) };
}

/** The bytes an introduction signs: a label, then the three fields, NUL-separated (a name holds no NUL). */
const introStatement = (link: Omit<Introduction, "sig">) => new TextEncoder().encode(`${INTRO_LABEL}\u0000${link.by}\u0000${link.name}\u0000${link.key}`);

async function privateKey(secret: string) {
  const seed = secret.length === MEMBER_KEY_LENGTH ? decodeBase64Url(secret) : undefined;
  if (seed?.length !== 32) throw new HandoffError("invalid_document", "a member key's secret must be 43 base64url characters (32 bytes)");
  const pkcs8 = new Uint8Array(PKCS8_PREFIX.length + 32);
  pkcs8.set(PKCS8_PREFIX, 0);
  pkcs8.set(seed, PKCS8_PREFIX.length);
  return crypto.subtle.importKey("pkcs8", pkcs8, ED25519, true, ["sign"]);
}
