import { isPlaceholder, looksSecret } from "./entropy.js";
import { regexRule, secretRange } from "./regex-rule.js";
import type { Rule } from "./types.js";

/**
 * Secrets recognised by what surrounds them: a URL's userinfo, a connection string's key, a
 * JSON field, an HTTP header, our own share URLs. Only the secret part is redacted, so the
 * scheme, host, user name or share id stay readable.
 */

const DATABASE_SCHEMES = new Set([
  "postgres",
  "postgresql",
  "mysql",
  "mariadb",
  "mongodb",
  "mongodb+srv",
  "redis",
  "rediss",
  "amqp",
  "amqps",
  "mssql",
  "sqlserver",
  "oracle",
  "cockroachdb",
  "clickhouse",
  "couchdb",
  "neo4j",
  "neo4j+s",
  "bolt",
  "memcached",
]);

const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
/** After `://`: the user (no ':'), ':', the password up to the last '@' before the host. */
const USERINFO = /[^\s:\/?#@"'<>]{0,256}:(?<secret>[^\s\/?#"'<>]{1,256})@/dy;
/** The same with '/', '#' and '?' allowed in the password, up to an '@' before a host. */
const WIDE_USERINFO = /[^\s:\/?#@"'<>]{1,256}:(?<secret>[^\s"'<>@]{1,256})@(?=[A-Za-z0-9[])/dy;

/**
 * `scheme://user:password@host`: only the password is redacted. Hand-driven from each literal
 * "://" (a regex that tries a scheme at every position costs 3x more on ordinary text): the
 * scheme is read backwards at most 31 characters, the userinfo by a sticky bounded regex.
 */
const URL_PASSWORD_RULE: Rule = {
  ids: ["url-password", "database-url-password"],
  docs: {
    "url-password": { what: "the password in a URL", shape: "`scheme://user:…@host`", stays: "scheme, user, host, path" },
    "database-url-password": {
      what: "the same for database URLs: postgres, mysql, mariadb, mongodb(+srv), redis(s), amqp(s), mssql, …",
      shape: "`postgres://user:…@host/db`",
      stays: "scheme, user, host, path",
    },
  },
  prefixes: ["://"],
  find(ctx) {
    const { text } = ctx;
    const userinfo = new RegExp(USERINFO.source, USERINFO.flags);
    const wideUserinfo = new RegExp(WIDE_USERINFO.source, WIDE_USERINFO.flags);
    let nextAt = -1;
    let count = 0;
    for (let at = text.indexOf("://"); at !== -1; at = text.indexOf("://", at + 3)) {
      if ((++count & 0x3ff) === 0) ctx.tick();
      let start = at;
      while (start > 0 && at - start <= 31 && SCHEME_CHAR.test(text[start - 1] ?? "")) start--;
      if (at - start > 31 || SCHEME_CHAR.test(text[start - 1] ?? "")) continue;
      while (start < at && !/[A-Za-z]/.test(text[start] ?? "")) start++;
      if (start === at) continue;
      userinfo.lastIndex = at + 3;
      let match = userinfo.exec(text);
      if (match === null) {
        // A password with an unencoded '/', '#' or '?' (`user:pa/ss#1@host`): taken only when what
        // precedes the first of them is not a port (`host:8080/a@b` is a path, not a password).
        // Tried only with an '@' near enough: the next one is found once, not once per "://".
        if (nextAt < at) nextAt = text.indexOf("@", at);
        if (nextAt < 0) nextAt = text.length;
        if (nextAt - at > 520) continue;
        wideUserinfo.lastIndex = at + 3;
        match = wideUserinfo.exec(text);
        const secret = match?.groups?.secret ?? "";
        if (match === null || /^\d*$/.test(secret.split(/[\/#?]/)[0] ?? "") || secret.includes("://")) continue;
      }
      const secret = match.groups?.secret ?? "";
      if (isPlaceholder(secret) || /^\d{1,5}$/.test(secret)) continue;
      const scheme = text.slice(start, at).toLowerCase();
      const range = secretRange(match);
      ctx.emit(range.start, range.end, DATABASE_SCHEMES.has(scheme) ? "database-url-password" : "url-password");
    }
  },
};

/** Basic credentials are base64 of `user:password`; anything else after `Basic` is prose. */
function decodesToUserPass(value: string): boolean {
  if (value.length % 4 !== 0) return false; // cheaper than the exception atob would throw
  try {
    return atob(value).includes(":");
  } catch {
    return false;
  }
}

/** Rules whose region can coincide with a vendor token's or a PEM block's and should name it. */
export const FIELD_RULES: readonly Rule[] = [
  regexRule({
    ids: ["handoff-share-key"],
    docs: { "handoff-share-key": { what: "the key in the fragment of our share links", shape: "`http(s)://HOST/h/ID#…`", stays: "the URL and the id" } },
    prefixes: ["/h/"],
    // Our share links carry the decryption key in the fragment: the id may stay, the key may not.
    pattern: /https?:\/\/[^\s\/?#"'<>]{1,253}\/h\/[A-Za-z0-9_-]{4,64}#(?<secret>[A-Za-z0-9_-]{16,256})/dg,
  }),
  regexRule({
    ids: ["gcp-service-account-key"],
    docs: { "gcp-service-account-key": { what: "the private key of a service-account JSON file", shape: '`"private_key": "…"`', stays: "the field name" } },
    prefixes: ['"private_key"'],
    // The JSON string value; alternatives start with different characters, so no backtracking blow-up.
    pattern: /"private_key"[ \t]{0,8}:[ \t]{0,8}"(?<secret>(?:[^"\\\r\n]|\\.){1,16384})"/dg,
    classify: (match) => ((match.groups?.secret ?? "").includes("PRIVATE KEY") ? { ...secretRange(match), rule: "gcp-service-account-key" } : undefined),
  }),
];

/** Rules that yield to a vendor token found in the same place (`https://user:<token>@host`). */
export const CONTEXT_RULES: readonly Rule[] = [
  regexRule({
    ids: ["azure-storage-key", "azure-shared-access-key"],
    docs: {
      "azure-storage-key": { what: "`AccountKey=…` in an Azure connection string", shape: "`AccountKey=` + base64", stays: "the rest of the string" },
      "azure-shared-access-key": { what: "`SharedAccessKey=…` (Service Bus, Event Hubs)", shape: "`SharedAccessKey=` + base64", stays: "the rest of the string" },
    },
    prefixes: ["accountkey=", "sharedaccesskey="],
    caseInsensitive: true,
    pattern: /(?<![A-Za-z0-9])(?<name>AccountKey|SharedAccessKey)[ \t]{0,4}=[ \t]{0,4}(?<secret>[A-Za-z0-9+\/]{20,200}={0,2})/dgi,
    classify: (match) => {
      const secret = match.groups?.secret ?? "";
      if (isPlaceholder(secret)) return undefined;
      const rule = (match.groups?.name ?? "").toLowerCase() === "accountkey" ? "azure-storage-key" : "azure-shared-access-key";
      return { ...secretRange(match), rule };
    },
  }),
  URL_PASSWORD_RULE,
  regexRule({
    ids: ["connection-string-password"],
    docs: { "connection-string-password": { what: "`Password=…` / `Pwd=…` in a `;`-separated connection string", shape: "`Server=…;Password=…;`", stays: "the other keys" } },
    prefixes: ["password", "pwd"],
    caseInsensitive: true,
    // Key=value connection strings (ADO.NET, ODBC, JDBC properties): `Server=...;Password=...;`.
    // A ';' before or after tells it apart from a .env line, which the assignment rule judges.
    pattern: /(?<![A-Za-z0-9_])(?:password|pwd)[ \t]{0,4}=[ \t]{0,4}(?<secret>[^;"'\s]{1,256})(?<semi>;?)/dgi,
    classify: (match) => {
      const secret = match.groups?.secret ?? "";
      const before = match.input.slice(Math.max(0, match.index - 8), match.index).trimEnd();
      if (match.groups?.semi !== ";" && !before.endsWith(";")) return undefined;
      if (secret.length === 0 || isPlaceholder(secret)) return undefined;
      return { ...secretRange(match), rule: "connection-string-password" };
    },
  }),
  regexRule({
    ids: ["bearer-token"],
    docs: { "bearer-token": { what: "a random-looking token after `Bearer `", shape: "`Bearer` + 16 or more", stays: "`Authorization: Bearer`" } },
    prefixes: ["bearer"],
    caseInsensitive: true,
    pattern: /(?<![A-Za-z0-9_])bearer[ \t]{1,4}(?<secret>[A-Za-z0-9._~+\/-]{16,4096}={0,2})/dgi,
    classify: (match) => (looksSecret(match.groups?.secret ?? "", { password: false }) ? { ...secretRange(match), rule: "bearer-token" } : undefined),
  }),
  regexRule({
    ids: ["basic-auth"],
    docs: { "basic-auth": { what: "the base64 `user:password` after `Authorization: Basic`", shape: "`Authorization: Basic` + base64", stays: "the header name" } },
    prefixes: ["basic"],
    caseInsensitive: true,
    pattern: /authorization["']?[ \t]{0,4}[:=][ \t]{0,4}["']?basic[ \t]{1,4}(?<secret>[A-Za-z0-9+\/]{8,4096}={0,2})/dgi,
    classify: (match) => {
      const secret = match.groups?.secret ?? "";
      return decodesToUserPass(secret) ? { ...secretRange(match), rule: "basic-auth" } : undefined;
    },
  }),
];
