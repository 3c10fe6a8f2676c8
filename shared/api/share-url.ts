import { parseShareKey } from "../crypto/key.js";
import { HandoffError, type Result, err, ok } from "../errors.js";
import { isHandoffId } from "../ids/handoff-id.js";

// Share links look like https://host[/prefix]/h/<id>#<key>. The key after '#' never reaches the
// server; see docs/storage.md ("The handoff envelope"). The API form https://host[/prefix]/v1/handoffs/<id> is accepted too.

const SHARE_PATH = /^(.*?)\/(?:h|v1\/handoffs)\/([^/]*)\/?$/;

/** Loopback hosts, the only ones where plain http is acceptable (a local development server). */
function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Checks the scheme, host and credentials of a parsed URL; `label` names where it came from
 * (`--server`, `HANDOFF_SERVER`, "the share URL") so the message points at the right place.
 */
function checkOrigin(url: URL, label: string, reason: "usage" | "invalid_option"): HandoffError | undefined {
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return new HandoffError(reason, `${label} must be an https:// URL, got a ${url.protocol} URL`);
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    return new HandoffError(reason, `${label} uses plain http to ${url.hostname}; http is allowed only for localhost, 127.0.0.1 and [::1]`, {
      hint: `use https://${url.host}${url.pathname === "/" ? "" : url.pathname}`,
    });
  }
  if (url.username !== "" || url.password !== "") {
    return new HandoffError(reason, `${label} must not contain a user name or password`, {
      hint: "put a publish token in HANDOFF_TOKEN or the config file instead",
    });
  }
  return undefined;
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Validates and normalises a publishing server base URL: http(s) only, http only to loopback, no
 * credentials, query or fragment; lower-case host, default port dropped, no trailing slash. A
 * path prefix is kept.
 *
 * @example
 * ```ts
 * normalizeServerUrl("https://Handoff.Example.com:443/team/", "--server") // ok("https://handoff.example.com/team")
 * normalizeServerUrl("http://example.com", "--server") // err(invalid_option: "--server uses plain http ...")
 * ```
 */
export function normalizeServerUrl(text: string, label: string): Result<string> {
  const url = parseUrl(text.trim());
  if (url === undefined) {
    return err(new HandoffError("invalid_option", `${label} is not a URL: '${text}'`, { hint: "use a base URL like https://handoff.example.com" }));
  }
  const problem = checkOrigin(url, label, "invalid_option");
  if (problem) return err(problem);
  if (url.search !== "" || url.hash !== "") {
    return err(new HandoffError("invalid_option", `${label} must be a base URL without '?' or '#' parts`, { hint: `use ${url.origin}${url.pathname}` }));
  }
  return ok(url.origin + url.pathname.replace(/\/+$/, ""));
}

/**
 * Whether two server URLs name the same server once normalised (scheme, host, port and path
 * prefix): the test every credential passes before it is sent. Malformed URLs are never the same.
 *
 * @example
 * ```ts
 * sameServer("https://Handoff.example.com:443/", "https://handoff.example.com") // true
 * sameServer("https://handoff.example.com", "https://handoff.example.com.evil.test") // false
 * ```
 */
export function sameServer(a: string, b: string): boolean {
  const left = normalizeServerUrl(a, "a server");
  const right = normalizeServerUrl(b, "a server");
  return left.ok && right.ok && left.value === right.value;
}

/**
 * The share link for a published handoff: `<server>/h/<id>#<key>`.
 *
 * @example
 * ```ts
 * buildShareUrl("https://handoff.example.com", "9mB3qQYx5yYt0v1mX4k2Ag", key)
 * // "https://handoff.example.com/h/9mB3qQYx5yYt0v1mX4k2Ag#<key>"
 * ```
 */
export function buildShareUrl(server: string, id: string, key: string): string {
  const base = normalizeServerUrl(server, "the server URL");
  if (!base.ok) throw base.error;
  if (!isHandoffId(id)) throw new HandoffError("internal", `cannot build a share URL: '${id}' is not a handoff id`);
  const secret = parseShareKey(key);
  if (!secret.ok) throw new HandoffError("internal", `cannot build a share URL: ${secret.error.message}`);
  return `${base.value}/h/${id}#${key}`;
}

/**
 * Reads a share URL (`/h/<id>#<key>`, or the API form `/v1/handoffs/<id>`); the key is optional
 * here (metadata needs no key), but when present it must be well-formed. Surrounding quotes or
 * angle brackets from a chat paste are dropped; a query string is ignored.
 *
 * @example
 * ```ts
 * const r = parseShareUrl("https://handoff.example.com/h/9mB3qQYx5yYt0v1mX4k2Ag#q3Jx...");
 * // ok({ server: "https://handoff.example.com", id: "9mB3qQYx5yYt0v1mX4k2Ag", key: "q3Jx..." })
 * ```
 */
export function parseShareUrl(text: string): Result<{ server: string; id: string; key?: string }> {
  const trimmed = text.trim().replace(/^(['"<])(.*)(['">])$/s, (whole, open: string, inner: string, close: string) => ((open === "<" ? close === ">" : open === close) ? inner.trim() : whole));
  const url = parseUrl(trimmed);
  const usage = (message: string) => err(new HandoffError("usage", message, { hint: "pass the whole share URL, like 'https://host/h/<id>#<key>', in single quotes" }));
  if (url === undefined) return usage(`not a share URL: '${trimmed.slice(0, 80)}'`);
  const problem = checkOrigin(url, "the share URL", "usage");
  if (problem) return err(problem);
  const match = SHARE_PATH.exec(url.pathname);
  if (match === null) return usage(`not a share URL: the path '${url.pathname}' has no /h/<id> part`);
  const [, prefix = "", id = ""] = match;
  if (!isHandoffId(id)) return usage(`the id in the share URL is malformed: expected 22 base64url characters after /h/`);
  const server = url.origin + prefix;
  const fragment = url.hash.slice(1);
  if (fragment === "") return ok({ server, id });
  const key = parseShareKey(fragment);
  if (!key.ok) return err(key.error);
  return ok({ server, id, key: fragment });
}

/**
 * True when `text` is meant as a URL (it starts with http:// or https://), so a resume source
 * goes to parseShareUrl and gets its precise error rather than "no such file".
 *
 * @example
 * ```ts
 * isShareUrl("https://handoff.example.com/h/abc") // true (parseShareUrl then says the id is malformed)
 * isShareUrl("./handoff.md") // false
 * ```
 */
export function isShareUrl(text: string): boolean {
  return /^\s*['"<]?https?:\/\//i.test(text);
}
