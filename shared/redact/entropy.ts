/**
 * Judging a candidate value: how random it looks, and whether it is an obvious placeholder.
 */

/**
 * Shannon entropy in bits per character.
 *
 * @example
 * ```ts
 * shannonEntropy("aaaa") // 0
 * shannonEntropy("abcd") // 2
 * ```
 */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Unquoted values that are code, not data: calls, indexing, templates, references. */
export const CODE_LIKE = /[()[\]{}<>$%]|^(?:process|os|env|self|this|config|settings|import)\./;

/**
 * One part of a dotted or kebab name as code spells it: lower, UPPER, or camelCase whose words
 * have two or more lower-case letters. A random mixed-case string rarely fits.
 */
// A version suffix (`JwtBearerStrategyV2`, `oauth2`) is still an identifier.
const IDENTIFIER_PART = /^(?:[a-z_$]+|[A-Z_]+|[A-Z]{0,2}[a-z_$]{2,}(?:[A-Z]{1,2}[a-z_$]{2,})*[A-Z]?)[0-9]{0,3}$/;

/**
 * Whether an unquoted value reads as a name in code (`getToken`, `PasswordSchema`,
 * `prod-db-credentials`, `JwtBearerStrategyV2`) rather than data.
 *
 * @example
 * ```ts
 * isIdentifier("PasswordSchema") // true
 * isIdentifier("x8Kq2mVb9TzL") // false
 * ```
 */
export function isIdentifier(value: string): boolean {
  return value.split(/[.-]/).every((part) => IDENTIFIER_PART.test(part));
}

const PLACEHOLDER_WORDS = /changeme|change_me|example|placeholder|your[_-]?|redacted|dummy|sample|secret_here|xxxx|\*\*\*|\.\.\.|<[A-Za-z0-9_. -]{1,40}>|\$\{|\{\{|%[A-Za-z_][A-Za-z0-9_]{0,63}%/i;
const REFERENCE = /^\$[A-Za-z_][A-Za-z0-9_]*$|^%[A-Za-z_][A-Za-z0-9_]*%$/;
const SAME_CHAR = /^(.)\1*$/s;

/**
 * True for values that only stand in for a secret: `<your-token>`, `${VAR}`, `$VAR`, `{{ x }}`,
 * `changeme`, `xxx`, `***`, one repeated character, our own `[REDACTED:...]` markers.
 *
 * @example
 * ```ts
 * isPlaceholder("${GITHUB_TOKEN}") // true
 * isPlaceholder("hunter22") // false
 * ```
 */
export function isPlaceholder(value: string): boolean {
  if (value.startsWith("[REDACTED:")) return true;
  if (REFERENCE.test(value) || SAME_CHAR.test(value)) return true;
  const lower = value.toLowerCase();
  if (lower === "password" || lower === "pass" || lower === "secret" || lower === "token" || lower === "none" || lower === "null") return true;
  return PLACEHOLDER_WORDS.test(value);
}

/** How many of lower, upper, digit, other a value uses. */
export function charClasses(value: string): number {
  return Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/[0-9]/.test(value)) + Number(/[^A-Za-z0-9]/.test(value));
}

/**
 * Whether a value found next to a secret-like name is worth redacting. Passwords are often
 * words, so any non-placeholder of six or more characters counts; for other names the value
 * must look random: at least 10 characters, 3 bits of entropy per character, and either two
 * character classes or 20 characters.
 *
 * @example
 * ```ts
 * looksSecret("hunter22", { password: true }) // true
 * looksSecret("production", { password: false }) // false
 * ```
 */
export function looksSecret(value: string, opts: { password: boolean }): boolean {
  if (isPlaceholder(value)) return false;
  if (opts.password) return value.length >= 6;
  if (value.length < 10 || /^[0-9.,_-]+$/.test(value)) return false;
  return shannonEntropy(value) >= 3 && (charClasses(value) >= 2 || value.length >= 20);
}
