import { isPlaceholder, looksSecret } from "./entropy.js";
import { regexRule, secretRange } from "./regex-rule.js";
import type { Rule, RuleContext } from "./types.js";

/**
 * Secrets named by the field they sit in, beyond context-rules.ts: Authorization headers of any
 * scheme, connection-string key fields, secret query parameters, and base64 runs that decode to a
 * private key (a kubeconfig's `client-key-data`). Only the secret part is redacted.
 */

/** Schemes whose credentials are a parameter list (`Digest username="a", response="..."`): all of it goes. */
const PARAMETER_SCHEMES = new Set(["digest", "oauth", "aws4-hmac-sha256", "hoba", "mutual", "signature", "vapid", "ntlm", "negotiate"]);

/**
 * `Authorization: <scheme> <credentials>` (and `Proxy-Authorization`), for every scheme but
 * Bearer and Basic, which have their own rules: `Token`, `Digest`, `SSWS`, `Bot`, `ApiKey`,
 * `AWS4-HMAC-SHA256`, `SharedKey`, `Negotiate`... A value with no scheme is redacted when it looks random.
 */
const AUTHORIZATION_HEADER: Rule = {
  ids: ["authorization-header"],
  docs: {
    "authorization-header": {
      what: "`Authorization:` / `Proxy-Authorization:` with any scheme but Bearer and Basic: `Token`, `SSWS`, `Bot`, `ApiKey`, `SharedKey`, … (the credential word) and parameter schemes `Digest`, `OAuth`, `AWS4-HMAC-SHA256`, `NTLM`, `Negotiate`, … (the whole parameter list); a value with no scheme when it looks random",
      shape: "`Authorization: SCHEME …`",
      stays: "the header name and the scheme",
    },
  },
  prefixes: ["authorization"],
  caseInsensitive: true,
  find(ctx: RuleContext) {
    const { text } = ctx;
    // The header name and separator only: the value is read by hand below, so the next search
    // starts right after what was read (a line can hold several headers).
    const header = /(?<![A-Za-z0-9_])(?:proxy-)?authorization["']?[ \t]{0,4}[:=][ \t]{0,4}["']?/gi;
    const scheme = /[A-Za-z][A-Za-z0-9_-]{0,30}[ \t]+/y;
    const word = /[^\s,;"'`]{1,4096}/y;
    const line = /[^\n\r]{1,4096}/y;
    let count = 0;
    for (let match = header.exec(text); match !== null; match = header.exec(text)) {
      if ((++count & 0x3ff) === 0) ctx.tick();
      const start = match.index + match[0].length;
      scheme.lastIndex = start;
      const named = scheme.exec(text);
      if (named === null) {
        word.lastIndex = start;
        const value = word.exec(text)?.[0] ?? "";
        header.lastIndex = start + value.length;
        // A value ending in ':' or '=' is the next header's name, not a credential.
        if (value.length >= 10 && !/[:=]$/.test(value) && looksSecret(value, { password: false })) ctx.emit(start, start + value.length, "authorization-header");
        continue;
      }
      const name = named[0].trim().toLowerCase();
      const from = start + named[0].length;
      header.lastIndex = from;
      if (name === "bearer" || name === "basic") continue; // their own rules
      const parameters = PARAMETER_SCHEMES.has(name);
      const value = parameters ? line : word;
      value.lastIndex = from;
      const credentials = (value.exec(text)?.[0] ?? "").replace(/[ \t\\]+$/, "");
      header.lastIndex = from + credentials.length;
      if (credentials.length < 8 || /^[$<%]|^\[REDACTED:/.test(credentials) || (!parameters && isPlaceholder(credentials))) continue;
      ctx.emit(from, from + credentials.length, "authorization-header");
    }
  },
};

/** Key fields of `Name=value;` connection strings (Azure, ADO.NET, ODBC) other than passwords. */
const CONNECTION_STRING_KEY = regexRule({
  ids: ["connection-string-key"],
  docs: {
    "connection-string-key": {
      what: "key fields of a connection string after another field: `AccessKey=`, `SharedAccessSignature=`, `ApiKey=`, `ClientSecret=`, `AuthToken=`, `Secret=`, `Token=`, `PrimaryKey=`, `MasterKey=`, …",
      shape: "`…;AccessKey=…`",
      stays: "the other fields",
    },
  },
  prefixes: ["accesskey", "authkey", "apikey", "api_key", "secret", "token", "sharedaccesssignature", "primarykey", "masterkey"],
  caseInsensitive: true,
  pattern:
    /(?<![A-Za-z0-9_])(?<name>SharedAccessSignature|AccessKey|AuthKey|ApiKey|Api_Key|ClientSecret|Client_Secret|SharedSecret|AuthToken|AccessToken|Secret|Token|PrimaryKey|MasterKey)[ \t]{0,4}=[ \t]{0,4}(?<secret>[^;"'\s()]{1,2048})(?<semi>;?)/dgi,
  classify: (match) => {
    const secret = match.groups?.secret ?? "";
    // A field of a connection string follows another one (`Endpoint=...;AccessKey=...`); a
    // statement like `const token = getToken();` only ends with ';'.
    const before = match.input.slice(Math.max(0, match.index - 8), match.index).trimEnd();
    if (!before.endsWith(";")) return undefined;
    const signature = (match.groups?.name ?? "").toLowerCase() === "sharedaccesssignature";
    if (isPlaceholder(secret) || (!signature && !looksSecret(secret, { password: false }))) return undefined;
    return { ...secretRange(match), rule: "connection-string-key" };
  },
});

/** `host:6380,password=...,ssl=True` (StackExchange.Redis and other comma-separated strings). */
const COMMA_PASSWORD = regexRule({
  ids: ["connection-string-password"],
  docs: { "connection-string-password": { what: "a password field in a comma-separated string (StackExchange.Redis)", shape: "`host:port,password=…`", stays: "the other fields" } },
  prefixes: [",password=", ",pwd="],
  caseInsensitive: true,
  pattern: /,[ \t]{0,2}(?:password|pwd)[ \t]{0,2}=[ \t]{0,2}(?<secret>[^,;"'\s]{1,256})/dgi,
  classify: (match) => {
    const secret = match.groups?.secret ?? "";
    return secret.length >= 3 && !isPlaceholder(secret) ? { ...secretRange(match), rule: "connection-string-password" } : undefined;
  },
});

const PASSWORD_PARAMS = new Set(["password", "passwd", "pwd", "pass"]);

/** Secrets in a URL's query: `?password=`, `&access_token=`, Azure SAS `&sig=`, S3 `X-Amz-Signature=`. */
const URL_QUERY_SECRET = regexRule({
  ids: ["url-query-secret"],
  docs: {
    "url-query-secret": {
      what: "a URL query's `password=`, `pwd=`, `secret=`, `client_secret=`, `access_token=`, `refresh_token=`, `token=`, `api_key=`, `sig=` (Azure SAS), `X-Amz-Signature=`, `X-Goog-Signature=`, …",
      shape: "`?name=…` or `&name=…`",
      stays: "the URL and the other parameters",
    },
  },
  prefixes: ["pass", "pwd", "secret", "token", "key", "sig"],
  caseInsensitive: true,
  pattern:
    /[?&](?<name>password|passwd|pwd|pass|secret|client_secret|access_token|refresh_token|id_token|auth_token|token|api_key|apikey|api-key|sig|signature|x-amz-signature|x-amz-security-token|x-goog-signature)=(?<secret>[^&#\s"'<>`]{1,4096})/dgi,
  classify: (match) => {
    const secret = match.groups?.secret ?? "";
    const password = PASSWORD_PARAMS.has((match.groups?.name ?? "").toLowerCase());
    if (!looksSecret(decodeQuery(secret), { password })) return undefined;
    return { ...secretRange(match), rule: "url-query-secret" };
  },
});

/** Percent-decoding for judging a value (`%2F` is one character); an invalid escape is kept as is. */
function decodeQuery(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}

/**
 * What base64 of a PEM private key, or of a service-account JSON file, starts with: `-----BEGIN `,
 * `{"type":"service_account"` and `{\n  "type": "service_account"`.
 */
const BASE64_HEADS = ["LS0tLS1CRUdJTi", "eyJ0eXBlIjoic2VydmljZV9hY2NvdW50Ii", "ewogICJ0eXBlIjogInNlcnZpY2VfYWNjb3VudCIs"];
const BASE64_CHAR = /[A-Za-z0-9+/=]/;
const MAX_RUN = 64 * 1024;

/**
 * A base64 run that decodes to a private key (a kubeconfig's `client-key-data`, a Kubernetes
 * Secret's `tls.key`, a CI variable holding a key file) or to a service-account key file. Found
 * from the literal heads above; the run is read forward (bounded) and its first 120 characters
 * decoded to check what it is, so a certificate (`-----BEGIN CERTIFICATE-----`) stays.
 */
const BASE64_PRIVATE_KEY: Rule = {
  ids: ["base64-private-key"],
  docs: {
    "base64-private-key": {
      what: "a base64 run that decodes to a PEM private key (a kubeconfig's `client-key-data`, a Kubernetes Secret's `tls.key`) or to a service-account key file; a base64 certificate stays",
      shape: "base64 of `-----BEGIN … PRIVATE KEY-----` or of a service-account JSON file",
    },
  },
  prefixes: BASE64_HEADS,
  find(ctx: RuleContext) {
    const { text } = ctx;
    let count = 0;
    for (const head of BASE64_HEADS) {
      let from = 0;
      for (let at = text.indexOf(head, from); at !== -1; at = text.indexOf(head, from)) {
        if ((++count & 0x3ff) === 0) ctx.tick();
        let end = at + head.length;
        const limit = Math.min(text.length, at + MAX_RUN);
        while (end < limit && BASE64_CHAR.test(text[end]!)) end++;
        from = end;
        if (at > 0 && /[A-Za-z0-9+/]/.test(text[at - 1]!)) continue; // the middle of a longer run: not its start
        const sample = text.slice(at, Math.min(end, at + 120));
        let decoded: string;
        try {
          decoded = atob(sample.slice(0, sample.length - (sample.length % 4)).replace(/=+$/, ""));
        } catch {
          continue;
        }
        if (/PRIVATE KEY-----|"private_key"|service_account/.test(decoded) && !/^-----BEGIN (?:CERTIFICATE|PUBLIC KEY)/.test(decoded)) {
          ctx.emit(at, end, "base64-private-key");
        }
      }
    }
  },
};

/** A base64 run names the key before any vendor rule could claim a piece of it. */
export const BASE64_KEY_RULES: readonly Rule[] = [BASE64_PRIVATE_KEY];

export const KEY_FIELD_RULES: readonly Rule[] = [AUTHORIZATION_HEADER, CONNECTION_STRING_KEY, COMMA_PASSWORD, URL_QUERY_SECRET];
