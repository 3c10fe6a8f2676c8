import { CODE_LIKE, isIdentifier, looksSecret } from "./entropy.js";
import type { Rule, RuleContext } from "./types.js";

/**
 * `.env` lines and config assignments whose name says "secret": `KEY=value`, `key: value`,
 * `"key": "value"`, `export KEY=value`, `key := value`, `--token=value`. Only the value is
 * redacted, and only when it is not a placeholder, not code (`getToken()`, `process.env.X`,
 * a bare identifier) and random enough (see `looksSecret`).
 *
 * A hand-written scanner: the keyword regex finds candidates, then bounded forward and
 * backward walks read the name and the value, and the next search starts after the value,
 * so every character is looked at a bounded number of times.
 */
const KEYWORD = /pass(?:wd|word)|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth(?!or)|credential|account[_-]?key|storage[_-]?key|_key/gi;
/** `DD_APP_KEY`, `ENCRYPTION_KEY`: an UPPER_SNAKE environment name whose only secret word is its `_KEY` end. */
const ENV_KEY_NAME = /^(?:export[ \t]+)?[A-Z][A-Z0-9_]*_KEY$/;
const NAME_CHAR = /[A-Za-z0-9_.-]/;
const MAX_NAME = 64;
const MAX_VALUE = 1024;
const QUOTES = "\"'`";

/** Names that hold something about a secret, not the secret: `token_path`, `secret_name`, `private_key_id`, `token_hash`. */
const ABOUT_A_SECRET =
  /[_.-](?:path|file|filename|dir|directory|folder|location|url|uri|endpoint|name|id|ids|type|kind|length|size|count|ttl|expiry|expires|expires_at|mode|method|header|field|env|var|hash|sha|digest|prefix|scope|scopes|version|format|provider|policy|enabled|required|arn|strategy|strategies|scheme|backend|plugin|adapter|handler|class|module|manager)$|(?:Path|File|Dir|Url|Uri|Name|Id|Type|Hash|Version|Arn|ARN|Strategy|Scheme|Backend)$/;

const isNameChar = (ch: string | undefined): boolean => ch !== undefined && NAME_CHAR.test(ch);

/** Which id a name/value pair gets. */
function ruleFor(name: string, value: string): string {
  if (/aws.{0,20}secret|secret[_-]?access[_-]?key/i.test(name) && /^[A-Za-z0-9+/]{40}$/.test(value)) return "aws-secret-access-key";
  if (/account[_-]?key|storage[_-]?key/i.test(name) && /^[A-Za-z0-9+/]{40,}={0,2}$/.test(value)) return "azure-storage-key";
  return "secret-assignment";
}

/** Reads the separator after a name; returns where the value may begin, or -1. */
function afterSeparator(text: string, at: number, nameStart: number): number {
  let i = at;
  const opening = text[nameStart - 1];
  if (opening !== undefined && QUOTES.includes(opening) && text[i] === opening) i++;
  const spacesFrom = i;
  while ((text[i] === " " || text[i] === "\t") && i - spacesFrom < 8) i++;
  const ch = text[i];
  if (ch === "=") {
    if (text[i + 1] === "=") return -1; // a comparison
    i += text[i + 1] === ">" ? 2 : 1;
  } else if (ch === ":") {
    if (text[i + 1] === ":") return -1;
    i += text[i + 1] === "=" ? 2 : 1;
  } else if (text[nameStart] === "-" && i > spacesFrom) {
    // `--password value`: a flag and its argument
  } else {
    return -1;
  }
  const valueSpacesFrom = i;
  while ((text[i] === " " || text[i] === "\t") && i - valueSpacesFrom < 8) i++;
  return i;
}

/** Reads a value at `at`: quoted up to its closing quote on the same line, else up to a delimiter. */
function readValue(text: string, at: number): { start: number; end: number; quoted: boolean; scanned: number } {
  const quote = text[at];
  if (quote !== undefined && QUOTES.includes(quote)) {
    let i = at + 1;
    const limit = Math.min(text.length, i + MAX_VALUE);
    while (i < limit && text[i] !== quote && text[i] !== "\n" && text[i] !== "\r") i++;
    if (text[i] === quote) return { start: at + 1, end: i, quoted: true, scanned: i + 1 };
  }
  // No closing quote (a truncated line): read what follows the quote as a bare value.
  const from = quote !== undefined && QUOTES.includes(quote) ? at + 1 : at;
  let i = from;
  const limit = Math.min(text.length, from + MAX_VALUE);
  while (i < limit && !/[\s"'`,;]/.test(text[i] ?? " ")) i++;
  return { start: from, end: i, quoted: false, scanned: i };
}

export const ASSIGNMENT_RULE: Rule = {
  ids: ["secret-assignment", "aws-secret-access-key", "azure-storage-key"],
  docs: {
    "secret-assignment": {
      what: 'the value of `KEY=`, `key: `, `"key": `, `export KEY=`, `key := `, `--key value` when the name says password, secret, token, api key, access key, private key, auth or credential (see below)',
      shape: "`NAME=…`",
      stays: "the name",
    },
    "aws-secret-access-key": { what: "a 40-character value assigned to `aws_secret_access_key`, `SecretAccessKey`, …", shape: "`NAME=` + 40 base64", stays: "the name" },
    "azure-storage-key": { what: "a long base64 value of an `…ACCOUNT_KEY` / `…STORAGE_KEY` name", shape: "`NAME=` + base64", stays: "the name" },
  },
  prefixes: ["pass", "secret", "token", "key", "auth", "credential"],
  caseInsensitive: true,
  find(ctx: RuleContext) {
    const { text } = ctx;
    const keyword = new RegExp(KEYWORD.source, "gi");
    let count = 0;
    for (let match = keyword.exec(text); match !== null; match = keyword.exec(text)) {
      if ((++count & 0x3ff) === 0) ctx.tick();
      let after = match.index + match[0].length;
      // `tokenizer`, `TOKENIZER`: the keyword must end a word part (`tokens`, `secretKey`,
      // `SECRET_KEY` are fine), so a following letter of the keyword's own case disqualifies it.
      const upper = /[A-Z]$/.test(match[0]);
      if (text[after] === (upper ? "S" : "s")) after++;
      if ((upper ? /[A-Z]/ : /[a-z]/).test(text[after] ?? "")) continue;
      let nameStart = match.index;
      while (match.index - nameStart < MAX_NAME && isNameChar(text[nameStart - 1])) nameStart--;
      let nameEnd = after;
      while (nameEnd - after < MAX_NAME && isNameChar(text[nameEnd])) nameEnd++;
      keyword.lastIndex = nameEnd;
      if (isNameChar(text[nameStart - 1]) || isNameChar(text[nameEnd])) continue; // longer than any real name
      const valueAt = afterSeparator(text, nameEnd, nameStart);
      if (valueAt < 0) continue;
      const value = readValue(text, valueAt);
      keyword.lastIndex = Math.max(nameEnd, value.scanned);
      // A query parameter's value ends at the next parameter: `?password=&next=/` holds none.
      const inQuery = text[nameStart - 1] === "?" || text[nameStart - 1] === "&";
      const raw = inQuery ? text.slice(value.start, value.end).replace(/[&#].*$/s, "") : text.slice(value.start, value.end);
      if (raw === "" || raw.startsWith("arn:")) continue;
      // Trailing punctuation of prose or code (`token=abc.`) is not part of the value.
      const trimmed = value.quoted ? raw : raw.replace(/[.)\]}]+$/, "");
      if (!value.quoted && (CODE_LIKE.test(trimmed) || isIdentifier(trimmed))) continue;
      const name = text.slice(nameStart, nameEnd);
      // `_key` alone counts only in an environment name, for a value that is no path: `sort_key: name` is config.
      if (match[0].toLowerCase() === "_key" && (!ENV_KEY_NAME.test(name) || /^[~./]/.test(trimmed))) continue;
      if (ABOUT_A_SECRET.test(name) || ABOUT_A_SECRET.test(name.toLowerCase())) continue; // `AUTH_STRATEGY` too
      // `arn:aws:secretsmanager:<region>:<account>:secret:<name>`: the name of a secret, not one.
      if (text[nameStart - 1] === ":" && /(?:^|[\s"'`=(,[])arn:[a-z0-9-]{1,32}:[a-z0-9-]{1,64}:[^\s:]{0,64}:[^\s:]{0,64}:$/i.test(text.slice(Math.max(0, nameStart - 200), nameStart))) continue;
      const password = /pass(?:wd|word)/i.test(name);
      // Passphrases may hold spaces; any other value with spaces is prose, not a key.
      if (!password && /\s/.test(trimmed)) continue;
      if (!looksSecret(trimmed, { password })) continue;
      ctx.emit(value.start, value.start + trimmed.length, ruleFor(name, trimmed));
    }
  },
};
