import { CODE_LIKE, isIdentifier, isPlaceholder, looksSecret } from "./entropy.js";
import type { Rule, RuleContext } from "./types.js";

/**
 * Secrets told in a sentence rather than assigned: "the password is hunter2-xyz", "my API key is
 * …", "the token for staging was …", "Password: …". Only the value is redacted.
 *
 * Prose about secrets is far more common than secrets in prose ("the password is required", "the
 * token is stored in the keychain"), so the value must look like one: for a password, a word
 * with a digit or a symbol (plain words, code names and technical terms such as `base64-encoded`
 * stay) or any quoted phrase; for a token, secret or key, a random-looking string (as in
 * `looksSecret`). A bare "key" counts only with a word that makes it a credential (`API key`,
 * `signing key`): "the key is to cache" and "the primary key is id" stay.
 *
 * A hand-written scanner: a keyword regex finds candidates, then a bounded number of words is read
 * after each (a short clause, a verb, the value), so a character is looked at a bounded number of
 * times.
 */

const KEYWORD = /pass(?:word|phrase|code|wd)|secret|token|key/gi;
/** What turns a bare "key" into a credential: `API key`, `apiKey`, `signing_key`. */
const KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "secret",
  "signing",
  "encryption",
  "decryption",
  "master",
  "private",
  "client",
  "license",
  "licence",
  "deploy",
  "app",
  "application",
  "account",
  "storage",
  "service",
  "admin",
  "auth",
  "session",
  "shared",
  "root",
  "webhook",
  "sas",
  "hmac",
  "jwt",
]);
/** A clause between the keyword and its verb starts with one of these: "the password for staging is …". */
const CLAUSE_OPENERS = new Set(["for", "of", "on", "in", "at", "from", "to", "with", "used", "that", "we", "you", "i", "they"]);
/** Verb phrases that tell a value, longest first; the last word may carry a colon (`is:`). */
const VERB_PHRASES = [
  "has been changed to",
  "has been set to",
  "was changed to",
  "is changed to",
  "was set to",
  "is set to",
  "changed to",
  "set to",
  "is now",
  "is still",
  "will be",
  "would be",
  "should be",
  "became",
  "becomes",
  "is",
  "was",
  "are",
  "were",
  "=",
  ":",
].map((phrase) => phrase.split(" "));
/** Words, in a quoted value, that describe a password rather than being one. */
const DESCRIBING = /^(?:string|str|text|number|int|bool|boolean|null|none|nil|undefined|empty|required|optional|hidden|masked|unset|secret|password|passphrase|token|key)$/i;
/**
 * Parts of a technical term: `sha256`, `base64`, `utf-8`, `aes-256-gcm`, `rs256`, `v2`, `32-byte`.
 * A value made only of these and plain words describes a secret ("the password is base64-encoded").
 */
const TECHNICAL_TERM =
  /^(?:(?:sha|md|base|utf|ucs|aes|rsa|ed|x|hmac|pbkdf|argon|scrypt|bcrypt|rs|es|hs|ps|v|p|cl|int|uint|float|crc|adler|latin)\d{1,5}[a-z]{0,10}|\d{1,3}|\d{1,5}(?:bit|bits|byte|bytes|char|chars|characters|k|kb|kib|mb|mib|m|s|ms|h|d|x))$/i;
/** A word as prose spells it (`encoded`, `AES`, `Vault`); a random mixed-case run is not one. */
const PLAIN_WORD = /^(?:[a-z]{1,20}|[A-Z]{1,6}|[A-Z][a-z]{1,19})$/;
const isTechnical = (value: string): boolean => value.split(/[-_./]/).every((part) => part === "" || PLAIN_WORD.test(part) || TECHNICAL_TERM.test(part));
const QUOTES: Record<string, string> = { '"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019" };
const MAX_WORD = 64;
const MAX_VALUE = 256;

/** Verb phrases by their first word, longest first. */
const VERBS_BY_FIRST = new Map<string, string[][]>();
for (const phrase of VERB_PHRASES) VERBS_BY_FIRST.set(phrase[0] ?? "", [...(VERBS_BY_FIRST.get(phrase[0] ?? "") ?? []), phrase]);
/** No verb or clause opener is longer: a longer word is never lower-cased to be compared. */
const LONGEST_SMALL_WORD = 8;

const isBlank = (code: number): boolean => code === 32 || code === 9;
const isSpace = (code: number): boolean => code === 32 || (code >= 9 && code <= 13);
const isWordChar = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isNameChar = (code: number): boolean => isWordChar(code) || code === 95 || code === 45;

interface Word {
  end: number;
  /** Lower case, or "" for a word longer than any verb. */
  word: string;
  /** It ends a label: `for the admin account:`. */
  colon: boolean;
}

/** The next word after 1 to 4 blanks at `at`, on the same line, or undefined. */
function wordAt(text: string, at: number): Word | undefined {
  let start = at;
  while (isBlank(text.charCodeAt(start)) && start - at < 4) start++;
  if (start === at) return undefined; // words are apart: `password,token` is a list
  let end = start;
  while (end < text.length && end - start < MAX_WORD && !isSpace(text.charCodeAt(end))) end++;
  if (end === start || (end - start === MAX_WORD && end < text.length && !isSpace(text.charCodeAt(end)))) return undefined;
  return { end, word: end - start <= LONGEST_SMALL_WORD ? text.slice(start, end).toLowerCase() : "", colon: end - start > 1 && text[end - 1] === ":" };
}

const withoutColon = (word: string): string => (word.endsWith(":") ? word.slice(0, -1) : word);

/**
 * Reads "[clause] verb" after the keyword and returns where the value may start, or -1. A colon or
 * an equals sign straight after the keyword (`Password: …`, `password = …`) is a verb too.
 */
function afterVerb(text: string, at: number): number {
  let i = at;
  while (isBlank(text.charCodeAt(i)) && i - at < 4) i++;
  if (text[i] === ":" || text[i] === "=") {
    const next = text[i + 1];
    if (next === "=" || next === ">" || next === ":") return -1;
    return i + (next === "=" && text[i] === ":" ? 2 : 1);
  }
  // Most keywords are followed by neither a verb nor a clause: they leave here, having read one word.
  let verb = wordAt(text, at);
  if (verb === undefined) return -1;
  if (CLAUSE_OPENERS.has(verb.word)) {
    // Up to four words of a clause before the verb ("for the admin account is"), or a label's
    // end ("for the admin account: …").
    for (let k = 0; k < 4 && verb !== undefined && (k === 0 || !VERBS_BY_FIRST.has(withoutColon(verb.word))); k++) {
      verb = wordAt(text, verb.end);
      if (verb?.colon && !VERBS_BY_FIRST.has(withoutColon(verb.word))) return verb.end;
    }
    if (verb === undefined) return -1;
  }
  const phrases = VERBS_BY_FIRST.get(withoutColon(verb.word));
  if (phrases === undefined) return -1;
  // The words after the verb, read once and only as far as a phrase needs them.
  const words: (Word | undefined)[] = [verb];
  for (const phrase of phrases) {
    let k = 0;
    for (; k < phrase.length; k++) {
      const previous = words[k - 1];
      if (words.length <= k) words.push(previous === undefined ? undefined : wordAt(text, previous.end));
      const got = words[k];
      const part = phrase[k] ?? "";
      const last = k === phrase.length - 1;
      if (got === undefined || (got.word !== part && !(last && got.colon && got.word.length === part.length + 1 && got.word.startsWith(part)))) break;
    }
    if (k === phrase.length) return words[k - 1]?.end ?? -1;
  }
  return -1;
}

/** The value at `at`: quoted up to its closing quote on the same line, else one word without trailing punctuation. */
function readValue(text: string, at: number): { start: number; end: number; quoted: boolean } | undefined {
  let i = at;
  // Blanks, and Markdown emphasis around a label or a value: `**Password:** hunter2`.
  while ((isBlank(text.charCodeAt(i)) || text[i] === "*" || text[i] === "_") && i - at < 12) i++;
  const close = QUOTES[text[i] ?? ""];
  if (close !== undefined) {
    let end = i + 1;
    while (end < text.length && end - i <= MAX_VALUE && text[end] !== close && text[end] !== "\n" && text[end] !== "\r") end++;
    if (text[end] === close && end > i + 1) return { start: i + 1, end, quoted: true };
    return undefined;
  }
  let end = i;
  while (end < text.length && end - i <= MAX_VALUE && !isSpace(text.charCodeAt(end))) end++;
  if (end - i > MAX_VALUE) return undefined;
  while (end > i && /[.,;:)\]}"'*_]/.test(text[end - 1] ?? "")) end--;
  while (i < end && (text[i] === "*" || text[i] === "_")) i++;
  return end > i ? { start: i, end, quoted: false } : undefined;
}

/** What an unquoted password has and a word of prose has not: a digit or a symbol. */
const PASSWORD_CHAR = /[0-9!@#$%^&*+=?~|\\]/;

/** Code where a password would be: a call, a template, a reference (`$`, `%` and brackets alone are password characters). */
const PASSWORD_CODE = /[A-Za-z0-9_]\(|\$\{|\{\{|^\$[A-Za-z_]|^(?:process|os|env|self|this|config|settings|import)\./;

/** Whether a value told of a password is one. */
function passwordValue(value: string, quoted: boolean): boolean {
  if (value.length < 6 || (!quoted && !PASSWORD_CHAR.test(value)) || isPlaceholder(value) || PASSWORD_CODE.test(value)) return false;
  // A name that holds a secret (`DB_PASSWORD`, `oldPassword1`, `passwordHash`) or an environment variable.
  if (/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value) && /pass|pwd|secret|token|key|cred/i.test(value)) return false;
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return false;
  if (/^[a-z][a-z0-9+.-]{1,20}:\/\//i.test(value) || /^(?:~|\.{1,2})?\//.test(value)) return false;
  if (quoted) return !DESCRIBING.test(value);
  if (/^\d+$/.test(value)) return true;
  // Plain words (`case-sensitive`) were turned away by PASSWORD_CHAR; a technical term is prose too.
  return !isTechnical(value);
}

/** Whether a value told of a token, secret or key is one: random-looking, not a name or a term. */
function tokenValue(value: string, quoted: boolean): boolean {
  // looksSecret wants 10 characters: the cheap test goes first.
  if (value.length < 10 || isPlaceholder(value) || CODE_LIKE.test(value) || /\s/.test(value) || isTechnical(value)) return false;
  if (!quoted && isIdentifier(value)) return false;
  if (/^[a-z][a-z0-9+.-]{1,20}:\/\//i.test(value) || /^(?:~|\.{1,2})?\//.test(value)) return false;
  return looksSecret(value, { password: false });
}

/** For "key": the word before it (`API key`, `api_key`, `apiKey`) must make it a credential. */
function qualifiesKey(text: string, at: number): boolean {
  let start = at;
  if (/[ _-]/.test(text[at - 1] ?? "")) {
    start--;
    while (start > 0 && at - start < 16 && /[A-Za-z]/.test(text[start - 1] ?? "")) start--;
    return KEY_QUALIFIERS.has(text.slice(start, at - 1).toLowerCase());
  }
  // camelCase: `apiKey`, `clientSecretKey`
  while (start > 0 && at - start < 16 && /[a-z]/.test(text[start - 1] ?? "")) start--;
  if (/[A-Z]/.test(text[start - 1] ?? "")) start--;
  return KEY_QUALIFIERS.has(text.slice(start, at).toLowerCase());
}

export const PROSE_RULE: Rule = {
  ids: ["prose-secret"],
  docs: {
    "prose-secret": {
      what: "a secret told in a sentence: a password, passphrase, token, secret or API key followed by `is`, `was`, `is set to`, `:`, … and a value that looks like one (see below)",
      shape: "`the password is …`, `my API key is …`, `Password: …`",
      stays: "the sentence",
    },
  },
  prefixes: ["pass", "secret", "token", "key"],
  caseInsensitive: true,
  find(ctx: RuleContext) {
    const { text } = ctx;
    const keyword = new RegExp(KEYWORD.source, "gi");
    let count = 0;
    for (let match = keyword.exec(text); match !== null; match = keyword.exec(text)) {
      if ((++count & 0x3ff) === 0) ctx.tick();
      const at = match.index;
      const before = text.charCodeAt(at - 1);
      // A word of its own, or the last part of a name (`DB_PASSWORD`, `apiKey`): not `tokenizer`, `monkey`.
      const camel = before >= 97 && before <= 122 && match[0].charCodeAt(0) <= 90;
      if (isWordChar(before) && !camel) continue;
      let after = at + match[0].length;
      if (text[after] === "s" || text[after] === "S") after++;
      const next = text.charCodeAt(after);
      if (isNameChar(next) || next === 46 || next === 47 || next === 92) continue; // `password.txt`, `token/`, `key\`
      // The end of a quoted or emphasised label: `"password" is`, `**Password**: …`.
      while (/[*"'`]/.test(text[after] ?? "") && after - at - match[0].length < 4) after++;
      // Prose, a list item or a label, not a field of a URL, connection string or ARN (`?token=`,
      // `;AccountKey=`, `:secret:`): their own rules read those.
      let nameStart = at;
      while (nameStart > 0 && at - nameStart < 64 && isNameChar(text.charCodeAt(nameStart - 1))) nameStart--;
      if (nameStart > 0 && !/[\s*"'`(\[>]/.test(text[nameStart - 1] ?? "")) continue;
      const word = match[0].toLowerCase();
      if (word === "key" && !qualifiesKey(text, at)) continue;
      const valueAt = afterVerb(text, after);
      if (valueAt < 0) continue;
      const value = readValue(text, valueAt);
      if (value === undefined) continue;
      keyword.lastIndex = value.end;
      const raw = text.slice(value.start, value.end);
      const secret = word.startsWith("pass") ? passwordValue(raw, value.quoted) : tokenValue(raw, value.quoted);
      if (secret) ctx.emit(value.start, value.end, "prose-secret");
      else keyword.lastIndex = valueAt;
    }
  },
};
