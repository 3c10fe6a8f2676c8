import { ERROR_REASONS, type ErrorReason, HandoffError } from "../shared/errors.js";

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
  headers: Headers;
  bytes: Uint8Array;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

export async function httpRequest(url: string, options: HttpOptions = {}): Promise<HttpResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    const init: RequestInit = { method: options.method ?? "GET", redirect: "error", signal };
    if (options.headers) init.headers = options.headers;
    if (options.body !== undefined) init.body = options.body;
    response = await fetch(url, init);
  } catch (cause) {
    throw networkError(url, cause, timeoutMs);
  }
  const declared = Number(response.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new HandoffError("too_large", `${url} answered with ${declared} bytes, more than the ${maxBytes}-byte cap`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > maxBytes) {
          throw new HandoffError("too_large", `${url} sent more than the ${maxBytes}-byte cap`);
        }
        chunks.push(chunk);
      }
    }
  } catch (cause) {
    if (cause instanceof HandoffError) throw cause;
    throw networkError(url, cause, timeoutMs);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { status: response.status, headers: response.headers, bytes };
}

function networkError(url: string, cause: unknown, timeoutMs: number): HandoffError {
  const name = cause instanceof Error ? cause.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return new HandoffError("network", `no answer from ${origin(url)} within ${timeoutMs / 1000} s`, {
      hint: "check that the server is running and reachable, then retry",
      cause,
    });
  }
  const inner = (cause as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const code = inner?.code;
  // Without a code (fetch refusing a "bad port", say), the inner message is the only specific word.
  const what = code === "ECONNREFUSED" ? "connection refused" : code === "ENOTFOUND" ? "host not found" : code ? code : inner?.message || "request failed";
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
  try {
    const body = JSON.parse(new TextDecoder().decode(response.bytes)) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string") code = body.error.code;
    if (typeof body.error?.message === "string") message = body.error.message;
  } catch {
    // not our JSON error shape; fall through to the status
  }
  const known = (ERROR_REASONS as readonly string[]).includes(code ?? "") ? (code as ErrorReason) : undefined;
  const retryAfter = response.headers.get("retry-after");
  const reason: ErrorReason = known ?? (response.status >= 500 ? "server_error" : response.status === 404 ? "not_found" : response.status === 413 ? "too_large" : response.status === 429 ? "rate_limited" : response.status === 401 ? "unauthorized" : response.status === 403 ? "forbidden" : "server_error");
  const text = message ?? statusText(response.status);
  const details: Record<string, unknown> = { status: response.status };
  if (retryAfter) details.retry_after = retryAfter;
  return new HandoffError(reason, `${what}: ${text}`, { details });
}

/** What a bare status means, for answers that are not our JSON error shape (a proxy, another server). */
function statusText(status: number): string {
  if (status === 413) return "the server refused the body as too large (HTTP 413)";
  if (status >= 500) return `the server failed (HTTP ${status})`;
  return `HTTP ${status}`;
}
