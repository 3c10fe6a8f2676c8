import { isPlaceholder, looksSecret } from "./entropy.js";
import { regexRule, secretRange } from "./regex-rule.js";
import type { Rule } from "./types.js";

/**
 * Secrets in the shapes credential files and protocols give them, which no name=value rule sees:
 * `.netrc` entries (one line or several), `.pgpass` lines, Cookie and Set-Cookie headers, and
 * tokens with a fixed shape but no prefix a vendor rule could key on (Discord bot tokens, Google
 * OAuth refresh tokens, age secret keys). Only the secret part is redacted.
 */

/** `.netrc`: `machine HOST [login U] [account A] [port P] password SECRET`, on one line or several. */
const NETRC_RULE = regexRule({
  ids: ["netrc-password"],
  docs: { "netrc-password": { what: "a `.netrc` password, on one line or several", shape: "`machine HOST login USER password …`", stays: "machine, login, account" } },
  prefixes: ["machine", "default"],
  // Each field is a keyword and one non-blank word, so no two repetitions can take the same text.
  pattern:
    /(?<![A-Za-z0-9_-])(?:machine[ \t]{1,8}(?<host>[^\s]{1,253})|default)(?:\s{1,16}(?:login|account|port|protocol)[ \t]{1,8}[^\s]{1,256}){0,4}\s{1,16}password[ \t]{1,8}(?<secret>[^\s]{1,256})/dg,
  classify: (match) => {
    const secret = match.groups?.secret ?? "";
    // A netrc host is a host name (`machine learning password policy` is prose).
    const host = match.groups?.host;
    if (host !== undefined && !/[.:]/.test(host) && host !== "localhost") return undefined;
    return isPlaceholder(secret) || secret.length < 4 ? undefined : { ...secretRange(match), rule: "netrc-password" };
  },
});

/**
 * `.pgpass`: a line `host:port:database:user:password` (or one such word in prose). The host has
 * a letter, a dot or is `*`, the port is digits or `*`: times (`10:30:00:...`) and MAC addresses
 * do not fit. Found from each `:port:` (a literal the regex engine skips to), then read both ways.
 */
const PGPASS_PORT = /:(?:\d{1,5}|\*):/g;
const PGPASS_TAIL = /(?:[^:\s]|\\:){1,63}:(?:[^:\s]|\\:){1,63}:(?<secret>[^\s:"'`]{1,256})(?![^\s"'`])/dy;
const HOST_CHAR = /[A-Za-z0-9.*_\[\]-]/;
const PGPASS_RULE: Rule = {
  ids: ["pgpass-password"],
  docs: { "pgpass-password": { what: "a `.pgpass` password", shape: "`host:port:database:user:…`", stays: "the other fields" } },
  prefixes: [":"],
  find(ctx) {
    const { text } = ctx;
    const port = new RegExp(PGPASS_PORT.source, PGPASS_PORT.flags);
    const tail = new RegExp(PGPASS_TAIL.source, PGPASS_TAIL.flags);
    let count = 0;
    for (let match = port.exec(text); match !== null; match = port.exec(text)) {
      if ((++count & 0x3ff) === 0) ctx.tick();
      // The port's closing ':' may open the next candidate's port (`a:1:2:...`).
      port.lastIndex = match.index + 1;
      let hostStart = match.index;
      while (hostStart > 0 && match.index - hostStart < 253 && HOST_CHAR.test(text[hostStart - 1]!)) hostStart--;
      const host = text.slice(hostStart, match.index);
      if (host === "" || text[hostStart - 1] === ":" || text[hostStart - 1] === "\\" || HOST_CHAR.test(text[hostStart - 1] ?? "") || !/[A-Za-z.*]/.test(host)) continue;
      tail.lastIndex = match.index + match[0].length;
      const found = tail.exec(text);
      const secret = found?.groups?.secret;
      if (found === null || secret === undefined || !looksSecret(secret, { password: true })) continue;
      const range = secretRange(found);
      ctx.emit(range.start, range.end, "pgpass-password");
      port.lastIndex = range.end;
    }
  },
};

/** Cookie names that carry a session or a credential (any random-looking value counts too). */
const SESSION_COOKIE = /sess|sid$|^sid|auth|token|jwt|csrf|xsrf|remember|login|secret|key/i;
/** Set-Cookie attributes: never a secret. */
const COOKIE_ATTRIBUTES = /^(?:path|domain|expires|max-age|samesite|secure|httponly|priority|partitioned|version|comment)$/i;

/**
 * `Cookie:` and `Set-Cookie:` headers: each `name=value` whose name says session or credential, or
 * whose value looks random, loses its value; `theme=dark` and the attributes stay.
 */
const COOKIE_RULE: Rule = {
  ids: ["cookie-value"],
  docs: {
    "cookie-value": {
      what: "values in `Cookie:` and `Set-Cookie:` headers whose name says session or credential, or whose value looks random",
      shape: "a `Cookie` or `Set-Cookie` header's `name=value` pairs",
      stays: "the names, other cookies, the attributes",
    },
  },
  prefixes: ["cookie"],
  caseInsensitive: true,
  find(ctx) {
    const header = /(?<![A-Za-z0-9_-])(?<set>set-)?cookie["']?[ \t]{0,4}:[ \t]{0,4}/dgi;
    for (let match = header.exec(ctx.text); match !== null; match = header.exec(ctx.text)) {
      ctx.tick();
      const start = match.index + match[0].length;
      let end = start;
      while (end < ctx.text.length && end - start < 8192 && ctx.text[end] !== "\n" && ctx.text[end] !== "\r" && ctx.text[end] !== '"' && ctx.text[end] !== "'") end++;
      header.lastIndex = end;
      let at = start;
      let first = true;
      for (const pair of ctx.text.slice(start, end).split(";")) {
        const eq = pair.indexOf("=");
        const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
        const raw = eq < 0 ? "" : pair.slice(eq + 1);
        const value = raw.trim().replace(/^"(.*)"$/, "$1");
        const isAttribute = match.groups?.set !== undefined && !first;
        if (eq >= 0 && value !== "" && !isAttribute && !COOKIE_ATTRIBUTES.test(name) && !isPlaceholder(value)) {
          // Other names need a long random value: `tz=Europe/Berlin` is a preference.
          const sensitive = SESSION_COOKIE.test(name) ? value.length >= 8 : value.length >= 20 && looksSecret(value, { password: false });
          if (sensitive) {
            const from = at + eq + 1 + raw.indexOf(value);
            ctx.emit(from, from + value.length, "cookie-value");
          }
        }
        first = false;
        at += pair.length + 1;
      }
    }
  },
};

/**
 * Discord bot tokens: base64 of the bot's numeric id, a dot, six or seven characters (a
 * timestamp), a dot, the HMAC (`client.login("M...")`). Found from each dot pair seven or eight
 * characters apart, so ordinary prose with its many dots costs two comparisons per dot.
 */
const DISCORD_RULE: Rule = {
  ids: ["discord-bot-token"],
  docs: {
    "discord-bot-token": { what: "Discord bot token", shape: "base64 of the bot's numeric id (starting `M`, `N` or `O`) + `.` + 6 or 7 + `.` + 27 to 40" },
  },
  prefixes: ["."],
  find(ctx) {
    const { text } = ctx;
    const body = /[A-Za-z0-9_-]/;
    let count = 0;
    for (let dot = text.indexOf("."); dot !== -1; dot = text.indexOf(".", dot + 1)) {
      if ((++count & 0x3ff) === 0) ctx.tick();
      const second = text[dot + 7] === "." ? dot + 7 : text[dot + 8] === "." ? dot + 8 : -1;
      if (second < 0) continue;
      let start = dot;
      while (start > 0 && dot - start < 28 && body.test(text[start - 1]!)) start--;
      if (dot - start < 23 || body.test(text[start - 1] ?? "") || !/[MNO]/.test(text[start]!)) continue;
      const middle = text.slice(dot + 1, second);
      if (!/^[A-Za-z0-9_-]{6,7}$/.test(middle)) continue;
      let end = second + 1;
      while (end < text.length && end - second - 1 < 40 && body.test(text[end]!)) end++;
      if (end - second - 1 < 27 || body.test(text[end] ?? "")) continue;
      const token = text.slice(start, end);
      // The first part is the id in base64: it decodes to digits only.
      if (!/^\d{17,20}$/.test(decodeBase64Url(text.slice(start, dot)))) continue;
      if (!looksSecret(token, { password: false })) continue;
      ctx.emit(start, end, "discord-bot-token");
      dot = end;
    }
  },
};

function decodeBase64Url(value: string): string {
  try {
    const padded = value.replace(/-/g, "+").replace(/_/g, "/");
    return atob(padded + "=".repeat((4 - (padded.length % 4)) % 4));
  } catch {
    return "";
  }
}

export const CREDENTIAL_FILE_RULES: readonly Rule[] = [
  NETRC_RULE,
  PGPASS_RULE,
  COOKIE_RULE,
  DISCORD_RULE,
  regexRule({
    ids: ["google-refresh-token"],
    docs: { "google-refresh-token": { what: "Google OAuth refresh token", shape: "`1//0` + 30 or more" } },
    prefixes: ["1//0"],
    // Google OAuth refresh tokens: `1//0` then base64url, in prose as often as in JSON.
    pattern: /(?<![A-Za-z0-9_\/:-])(?<secret>1\/\/0[A-Za-z0-9_-]{30,512})(?![A-Za-z0-9_-])/dg,
    classify: (match) => (looksSecret(match.groups?.secret ?? "", { password: false }) ? { ...secretRange(match), rule: "google-refresh-token" } : undefined),
  }),
  regexRule({
    ids: ["age-secret-key"],
    docs: {
      "age-secret-key": {
        what: "age identities: X25519 and post-quantum secret keys, plugin identities",
        shape: "`AGE-SECRET-KEY-1` or `AGE-SECRET-KEY-PQ-1` + 58 Bech32 characters (upper or lower case); `AGE-PLUGIN-NAME-1` + Bech32",
      },
    },
    prefixes: ["age-secret-key-", "age-plugin-"],
    caseInsensitive: true,
    // age identities in Bech32: the human-readable part, `1`, then the data in Bech32's alphabet,
    // all upper or all lower case (Bech32 refuses mixed case). X25519 and post-quantum (`-PQ-`)
    // keys hold 32 bytes (58 characters); a plugin identity (`AGE-PLUGIN-PQ-1…`) carries what its
    // plugin needs, often the key itself.
    pattern:
      /(?<![A-Za-z0-9_-])(?:AGE-SECRET-KEY-(?:PQ-)?1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}|age-secret-key-(?:pq-)?1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}|AGE-PLUGIN-[A-Z0-9]{1,32}(?:-[A-Z0-9]{1,32}){0,3}-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{20,1000})(?![A-Za-z0-9])/dg,
  }),
];
