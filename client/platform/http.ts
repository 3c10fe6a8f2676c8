import { oneLine } from "./terminal.js";
import { ERROR_REASONS, type ErrorReason, HandoffError } from "../../shared/errors.js";

/**
 * The CLI's one HTTP path: every request has a timeout and a response-size cap, every failure
 * becomes a HandoffError that says what happened (refused, timed out, HTTP status, body too
 * large), and JSON responses are validated with the shared zod schemas before use.
 */
export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface HttpResponse {
  status: number;
  /** Header lookup by lower- or mixed-case name; null when absent. */
  headers: { get(name: string): string | null };
  bytes: Uint8Array;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

/**
 * node:http rather than fetch: in Node 20 the first fetch of a process loads undici, about
 * 90 ms, which is more than a whole local `handoff create` (bench/publish.bench.js). Redirects
 * are not followed: a 3xx is an answer like any other status, and callers refuse it.
 */
export async function httpRequest(url: string, options: HttpOptions = {}): Promise<HttpResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let target: URL;
  try {
    target = new URL(url);
  } catch (cause) {
    throw new HandoffError("unreadable", `${url} is not a valid URL`, { hint: "check the URL, and quote it in the shell", cause });
  }
  const { request } = target.protocol === "https:" ? await import("node:https") : await import("node:http");
  const body = typeof options.body === "string" ? Buffer.from(options.body) : options.body;
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers["content-length"] = String(body.byteLength);

  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    const fail = (error: HandoffError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    };
    // One deadline for the whole exchange (connect, upload, headers, body), like AbortSignal.timeout.
    const timer = setTimeout(() => fail(timeoutError(url, timeoutMs)), timeoutMs);
    // agent: false: one connection, closed after the answer, so nothing keeps the CLI alive.
    const req = request(target, { method: options.method ?? "GET", headers, agent: false }, (res) => {
      const declared = Number(res.headers["content-length"] ?? "NaN");
      if (Number.isFinite(declared) && declared > maxBytes) {
        fail(new HandoffError("too_large", `${url} answered with ${declared} bytes, more than the ${maxBytes}-byte cap`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxBytes) fail(new HandoffError("too_large", `${url} sent more than the ${maxBytes}-byte cap`));
        else chunks.push(chunk);
      });
      res.on("error", (cause) => fail(networkError(url, cause)));
      res.on("close", () => {
        if (!res.complete) fail(networkError(url, new Error("the connection closed before the answer was complete")));
      });
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const raw = res.headers;
        const get = (name: string) => {
          const value = raw[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
        };
        resolve({ status: res.statusCode ?? 0, headers: { get }, bytes: new Uint8Array(Buffer.concat(chunks, size)) });
      });
    });
    req.on("error", (cause) => fail(networkError(url, cause)));
    req.end(body);
  });
}

function timeoutError(url: string, timeoutMs: number): HandoffError {
  return new HandoffError("network", `no answer from ${origin(url)} within ${timeoutMs / 1000} s`, {
    hint: "check that the server is running and reachable, then retry",
  });
}

function networkError(url: string, cause: unknown): HandoffError {
  const code = (cause as { code?: unknown } | undefined)?.code;
  const what =
    code === "ECONNREFUSED"
      ? "connection refused"
      : code === "ENOTFOUND" || code === "EAI_AGAIN"
        ? "host not found"
        : code === "ECONNRESET"
          ? "the connection was reset"
          : typeof code === "string"
            ? code
            : cause instanceof Error && cause.message
              ? cause.message
              : "request failed";
  return new HandoffError("network", `could not reach ${origin(url)}: ${what}`, {
    hint: "check the server URL and that the server is running, then retry",
    cause,
  });
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Parses a JSON response body with a schema; a body of the wrong shape is a server error. */
/** Any zod schema, classic or mini (the API schemas are mini, for the worker's bundle size). */
export interface SafeParser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

export function parseJsonBody<T>(response: HttpResponse, schema: SafeParser<T>, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(response.bytes));
  } catch (cause) {
    throw new HandoffError("server_error", `the server's ${what} response is not JSON (HTTP ${response.status})`, { cause });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new HandoffError("server_error", `the server's ${what} response does not have the expected shape`, {
      hint: "the server may run another version of Handoff",
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/**
 * Turns a non-2xx answer into a HandoffError: our own server's `{error: {code, message}}` keeps
 * its reason; anything else is named by its status.
 */
export function errorFromResponse(response: HttpResponse, what: string): HandoffError {
  let code: string | undefined;
  let message: string | undefined;
  let passphrase = false;
  try {
    const body = JSON.parse(new TextDecoder().decode(response.bytes)) as { error?: { code?: unknown; message?: unknown; details?: { passphrase?: unknown } } };
    // The one detail taken from the server's words: a passphrase link asks for its passphrase.
    passphrase = body.error?.details?.passphrase === true;
    if (typeof body.error?.code === "string") code = body.error.code;
    // Another server's words: kept short and escaped, so a hostile answer cannot drive the
    // terminal (ESC ]0; retitles it, ESC [2J clears it) or forge lines of our output.
    if (typeof body.error?.message === "string") message = oneLine(body.error.message.slice(0, 500));
  } catch {
    // not our JSON error shape; fall through to the status
  }
  const known = (ERROR_REASONS as readonly string[]).includes(code ?? "") ? (code as ErrorReason) : undefined;
  const retryAfter = response.headers.get("retry-after");
  const reason: ErrorReason =
    known ??
    (response.status >= 500
      ? "server_error"
      : response.status === 404
        ? "not_found"
        : response.status === 413
          ? "too_large"
          : response.status === 429
            ? "rate_limited"
            : response.status === 401
              ? "unauthorized"
              : response.status === 403
                ? "forbidden"
                : "server_error");
  const text = message ?? statusText(response.status);
  const details: Record<string, unknown> = { status: response.status };
  if (retryAfter) details.retry_after = retryAfter;
  if (passphrase) details.passphrase = true;
  return new HandoffError(reason, `${what}: ${text}`, { details });
}

/** What a bare status means, for answers that are not our JSON error shape (a proxy, another server). */
function statusText(status: number): string {
  if (status === 413) return "the server refused the body as too large (HTTP 413)";
  if (status >= 500) return `the server failed (HTTP ${status})`;
  return `HTTP ${status}`;
}
