// Drives the real worker (its default export, real bindings in workerd) with test limits layered
// over wrangler.toml's vars: anonymous publishing on, expiries down to one second, an operator token.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { errorBodySchema } from "../../shared/api/error.js";
import { type PublishResponse, publishResponseSchema } from "../../shared/api/publish.js";
import { encodeBase64Url } from "../../shared/ids/base64url.js";
import { READ_TOKEN_HEADER } from "../../shared/crypto/read-token.js";
import { sha256Base64Url } from "../../shared/ids/tokens.js";
import type { Bindings } from "../../worker/bindings.js";
import worker from "../../worker/index.js";

export const ADMIN_TOKEN = "test-operator-token-0123456789abcdefghij";
export const ORIGIN = "http://handoff.test";

/**
 * The read token every helper call sends unless told otherwise (`readToken`), so the tests about
 * other rules publish and read as the CLI would; test/worker/key-bound-read.test.ts is the one
 * that withholds or forges it.
 */
export const TEST_READ_TOKEN = encodeBase64Url(new Uint8Array(32).fill(7));
export const TEST_READ_HASH = await sha256Base64Url(TEST_READ_TOKEN);

export const TEST_VARS: Partial<Bindings> = {
  ALLOW_ANONYMOUS_PUBLISH: "true",
  MIN_EXPIRES_IN_SECONDS: "1",
  ADMIN_TOKEN,
};

export interface CallInit extends RequestInit {
  /** Vars layered over wrangler.toml's and TEST_VARS. */
  vars?: Partial<Bindings>;
  /** CF-Connecting-IP; a fresh random address per call unless given, so limits only trip on purpose. */
  ip?: string;
  token?: string;
  /** The Handoff-Read-Token header: TEST_READ_TOKEN unless given; null sends none. */
  readToken?: string | null;
  /** Which request this is (an attempt and its index), named in the message of a request that hangs. */
  label?: string;
}

/**
 * How long one request (its fetch, then its waitUntil work) may take before it counts as hung.
 * Generous on purpose (the slowest request seen with two full runs sharing two cores took 1.3 s): it is not a performance bound, it turns a hang into a failure that names
 * the request and the phase that never settled, long before the test's own timeout.
 */
const REQUEST_DEADLINE_MS = 60_000;

/** `promise`, or a rejection naming `what` when it has not settled within `ms`; the timer never outlives it. */
async function within<T>(promise: T | Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

let nextIp = 1;
const freshIp = () => `10.${(nextIp >> 16) & 255}.${(nextIp >> 8) & 255}.${nextIp++ & 255}`;

/** One request through the worker's fetch handler, waiting for its waitUntil work. */
export async function call(path: string, init: CallInit = {}): Promise<Response> {
  const { vars, ip, token, readToken = TEST_READ_TOKEN, label, ...requestInit } = init;
  const headers = new Headers(requestInit.headers);
  if (readToken !== null) headers.set(READ_TOKEN_HEADER, readToken);
  headers.set("CF-Connecting-IP", ip ?? freshIp());
  if (token !== undefined) headers.set("Authorization", `Bearer ${token}`);
  const request = new Request(`${ORIGIN}${path}`, { ...requestInit, headers });
  const ctx = createExecutionContext();
  const what = `${label === undefined ? "" : `${label}: `}${request.method} ${path}`;
  const fetched = worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...TEST_VARS, ...vars }, ctx);
  const response = await within(fetched, REQUEST_DEADLINE_MS, `${what}: the worker's fetch`);
  await within(waitOnExecutionContext(ctx), REQUEST_DEADLINE_MS, `${what}: waitOnExecutionContext (its waitUntil work)`);
  return response;
}

/** A body's bytes as UTF-8 text (the worker labels bodies application/octet-stream). */
export const textOf = async (res: Response) => new TextDecoder().decode(await res.arrayBuffer());

/** Publishes `body` with `query` and returns the validated 201 body. */
export async function publish(body: string | Uint8Array = "ciphertext", query = "", init: CallInit = {}): Promise<PublishResponse> {
  const res = await call(`/v1/handoffs${query ? `?${query}` : ""}`, { method: "POST", body, ...init });
  expect(res.status, await res.clone().text()).toBe(201);
  return publishResponseSchema.parse(await res.json());
}

/** Asserts the one error shape and returns its code. */
export async function errorCode(res: Response): Promise<string> {
  return errorBodySchema.parse(await res.json()).error.code;
}

export const accessStub = (id: string) => env.ACCESS.get(env.ACCESS.idFromName(id));

/** Creates a team through the operator API and returns its first token. */
export async function createTeam(name: string): Promise<string> {
  const res = await call("/v1/admin/teams", { method: "POST", token: ADMIN_TOKEN, body: JSON.stringify({ name }) });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex",
  "x-content-type-options": "nosniff",
};

/** The headers every response carries (docs/api.md, "Headers on every response"). */
export function expectSecurityHeaders(res: Response): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name), name).toBe(value);
  expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
  expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
