/**
 * One error vocabulary for the whole project.
 *
 * Every failure carries a tagged `reason`. The CLI maps a reason to an exit code
 * (`exitCodeFor`), the worker maps it to an HTTP status (`httpStatusFor`); both maps are
 * exhaustive switches, so adding a reason without deciding its exit code and status fails
 * to typecheck. `message` is for people and names the problem; `hint` says what to do.
 * Internal causes (`cause`) are logged, never put on the wire.
 *
 * @example
 * ```ts
 * throw new HandoffError("invalid_document", "title is empty", { hint: "pass --title" });
 * // CLI: exit 1; worker: 400 {error: {code: "invalid_document", message: "title is empty"}}
 * ```
 */

export const ERROR_REASONS = [
  /** Flags or arguments are wrong: unknown flag, missing value, bad combination. */
  "usage",
  /** A document (handoff, manifest, request body) does not follow its contract. */
  "invalid_document",
  /** An option value is out of range or malformed (expires_in, max_views, scope, duration). */
  "invalid_option",
  /** A required input was empty (an empty handoff body). */
  "empty_input",
  /** A source or file could not be read: missing, permission, not a regular file. */
  "unreadable",
  /** Input is larger than the cap that applies to it. */
  "too_large",
  /** A managed store root or folder is not safe: symlink, foreign owner, wrong mode. */
  "unsafe_store",
  /** A local write or other filesystem/OS operation failed. */
  "io_failed",
  /** Discovery found nothing relevant. */
  "nothing_found",
  /** A selected source lacks what is needed to orient. */
  "insufficient",
  /** The checkout has diverged from what the handoff recorded, beyond what a resume tolerates. */
  "diverged",
  /** No publishing server is configured. */
  "not_configured",
  /** The server could not be reached, timed out, or the connection broke. */
  "network",
  /** The server answered with something the client did not expect (5xx, bad shape). */
  "server_error",
  /** Unknown id. */
  "not_found",
  /** A share link's lifetime is over. */
  "expired",
  /** A share link was revoked by its owner. */
  "revoked",
  /** A share link has used up its views. */
  "exhausted",
  /** A passphrase link is locked after too many wrong passphrases, until its owner resets or revokes it. */
  "locked",
  /** No credentials, or malformed credentials. */
  "unauthorized",
  /** Credentials do not grant this. */
  "forbidden",
  /** Too many requests; retry later. */
  "rate_limited",
  /** Decryption failed: wrong key, tampered or truncated ciphertext. */
  "decrypt_failed",
  /** Secret scanning failed or timed out; nothing was sent. */
  "redaction_failed",
  /** Secret scanning found something (used by `handoff scan`). */
  "secrets_found",
  /** Content the secret scan cannot read (an archive, binary data), refused unless the sender allows it. */
  "unscannable",
  /** A bug: an invariant did not hold. */
  "internal",
] as const;

export type ErrorReason = (typeof ERROR_REASONS)[number];

export interface HandoffErrorOptions {
  /** What the user can do about it, one sentence. */
  hint?: string;
  /** Structured detail safe to show (validation issues, a path, a retry command). */
  details?: Record<string, unknown>;
  /** Internal cause, for logs and --verbose only. */
  cause?: unknown;
}

export class HandoffError extends Error {
  override readonly name = "HandoffError";
  readonly reason: ErrorReason;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(reason: ErrorReason, message: string, options: HandoffErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.hint = options.hint;
    this.details = options.details;
  }
}

export function isHandoffError(value: unknown): value is HandoffError {
  return value instanceof HandoffError;
}

/** A value or a tagged failure, for code paths where throwing is the wrong tool (parsers, validators). */
export type Result<T, E = HandoffError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });

/** CLI exit codes, documented in docs/cli.md. */
export const EXIT = {
  ok: 0,
  /** Invalid input or a domain failure (invalid document, nothing found, insufficient, secrets found). */
  domain: 1,
  /** Usage error: wrong flags or arguments. */
  usage: 2,
  /** Operational failure: I/O, network, server, access to a share link. */
  operational: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export function exitCodeFor(reason: ErrorReason): ExitCode {
  switch (reason) {
    case "usage":
    case "invalid_option":
      return EXIT.usage;
    case "invalid_document":
    case "empty_input":
    case "nothing_found":
    case "insufficient":
    case "diverged":
    case "secrets_found":
    case "unscannable":
      return EXIT.domain;
    case "unreadable":
    case "too_large":
    case "unsafe_store":
    case "io_failed":
    case "not_configured":
    case "network":
    case "server_error":
    case "not_found":
    case "expired":
    case "revoked":
    case "exhausted":
    case "locked":
    case "unauthorized":
    case "forbidden":
    case "rate_limited":
    case "decrypt_failed":
    case "redaction_failed":
    case "internal":
      return EXIT.operational;
  }
}

export function httpStatusFor(reason: ErrorReason): number {
  switch (reason) {
    case "usage":
    case "invalid_option":
    case "invalid_document":
    case "empty_input":
      return 400;
    case "unauthorized":
      return 401;
    case "forbidden":
      return 403;
    case "not_found":
    case "nothing_found":
      return 404;
    case "expired":
    case "revoked":
    case "exhausted":
      return 410;
    case "too_large":
      return 413;
    case "locked":
      return 423;
    case "insufficient":
    case "diverged":
    case "secrets_found":
    case "unscannable":
    case "decrypt_failed":
      return 422;
    case "rate_limited":
      return 429;
    case "unreadable":
    case "unsafe_store":
    case "io_failed":
    case "not_configured":
    case "redaction_failed":
    case "internal":
      return 500;
    case "network":
    case "server_error":
      return 502;
  }
}

/** The one JSON shape of every error the worker sends, and the CLI prints with --json. */
export interface ErrorBody {
  error: { code: ErrorReason; message: string; hint?: string; details?: Record<string, unknown> };
}

export function errorBody(error: HandoffError): ErrorBody {
  const body: ErrorBody = { error: { code: error.reason, message: error.message } };
  if (error.hint !== undefined) body.error.hint = error.hint;
  if (error.details !== undefined) body.error.details = error.details;
  return body;
}
