import { basename, dirname, join } from "node:path";
import { type ChangesSummary, decodeChanges, encodeChanges, summarizeChanges, withoutPaths } from "../../../shared/changes/bundle.js";
import { withChanges } from "../../../shared/crypto/payload.js";
import { captureGit } from "../../lib/git.js";
import type { Scope } from "../../../shared/api/limits.js";
import { SHARE_RESUME_COMMAND, shellQuote } from "../../../shared/ce/resume-command.js";
import { sealHandoff } from "../../../shared/crypto/envelope.js";
import { SealMetaSchema } from "../../../shared/crypto/frame.js";
import { deriveReadToken } from "../../../shared/crypto/read-token.js";
import { HandoffError, isHandoffError } from "../../../shared/errors.js";
import { parseStrictJson } from "../../../shared/kernel/strict-json.js";
import { type DocumentLabel, detectFormat, startsLikeJson } from "../../../shared/document/sniff.js";
import { NOT_REDACTED, RedactionCollector, type RedactionSummary } from "../../../shared/redact/fields.js";
import { buildShareUrl } from "../../../shared/api/share-url.js";
import { resolvePublishConfig } from "../../lib/config.js";
import { forgetPending } from "../../lib/published-store.js";
import { type OwnerRecordInput, afterFailedPublish, completeRecord, keepPending } from "./owner-record.js";
import { readTextFile, tooLarge } from "../../platform/read-file.js";
import { MAX_PUBLISH_PLAINTEXT as MAX_PLAINTEXT } from "../../../shared/document/size-limits.js";
import { callOptionsFor, publishCiphertext } from "../../lib/server-api.js";
import { recordTimestamp } from "../../../shared/time/timestamps.js";
import type { Env } from "../../platform/env.js";
import { formatDuration } from "../../../shared/time/duration.js";
import { PROPOSED_ID_HEADER } from "../../../shared/api/team.js";
import { newHandoffId, newToken } from "../../../shared/ids/tokens.js";
import { teamCardFor } from "./team-card.js";
import { PASSPHRASE_REFUSE_BELOW_BITS, PASSPHRASE_WARN_BELOW_BITS, passphraseStrength } from "../../../shared/crypto/passphrase-strength.js";

/**
 * Publishing a local handoff: redact (fail closed), encrypt on this machine, send ciphertext,
 * keep the owner token. The local file is only ever read: a failed publish leaves it exactly as
 * it was, and the error names it and prints the command that retries.
 */

export interface PublishFileOptions {
  path: string;
  expiresIn?: number;
  maxViews: number | null;
  scope: Scope;
  server?: string;
  redact: boolean;
  now?: () => Date;
  /** --with-changes: the bundle beside FILE (named in its frontmatter), else captured now in `cwd`. */
  withChanges?: boolean;
  /** With withChanges: why a path (absolute) may not travel (the guard's decision under a sealed manifest); it is left out and named. */
  excluded?: (path: string) => string | undefined;
  /** --allow-unscanned: a bundle captured now may carry files the secret scan cannot read. */
  allowUnscanned?: boolean;
  cwd?: string;
  /** A passphrase readers need as well as the link (envelope v2). */
  passphrase?: string;
}

export interface PublishResult {
  path: string;
  url: string;
  id: string;
  expires_at: string;
  max_views: number | null;
  scope: Scope;
  /** Reading needs a passphrase as well as the link. */
  passphrase: boolean;
  warnings: string[];
  resume_command: string;
  revoke_command: string;
  redaction: RedactionSummary;
  /** Set when the uncommitted work travels sealed with it (payload format 2). */
  changes?: ChangesSummary;
}

/** What the holder of the link can do depends on its scope: a team link also needs a team token. */
export function shareWarnings(scope: Scope): string[] {
  return [
    scope === "team"
      ? "the URL is the key: whoever holds it and a token of your team can read this handoff until it expires, its views are used up, or you revoke it"
      : "the URL is the key: whoever holds it can read this handoff until it expires, its views are used up, or you revoke it",
    "never pass it through a URL shortener or a chat that unfurls links: a link preview can spend a view",
  ];
}

/** `handoff publish FILE`: read the file once, then publish what was read. */
export async function publishFile(options: PublishFileOptions, deps: PublishDeps): Promise<PublishResult> {
  // A passphrase too weak to keep is refused before the file is read or its changes captured.
  passphraseWarning(options.passphrase, options.path);
  const text = readTextFile(options.path, MAX_PLAINTEXT, { what: "the handoff", tooLargeHint: "publish a pointer-first handoff, not a transcript" });
  const changes = options.withChanges ? await changesFor(options.path, text, options.cwd ?? dirname(options.path), deps.env, options.excluded, options.allowUnscanned === true) : undefined;
  return publishDocument({ ...options, text, ...(changes ? { changes } : {}) }, deps);
}

/** The bundle `create --with-changes` wrote beside the handoff when it names one, else one captured now. */
async function changesFor(path: string, text: string, cwd: string, env: Env, excluded: ((path: string) => string | undefined) | undefined, allowUnscanned: boolean): Promise<Uint8Array> {
  const { readChangesBeside } = await import("../../lib/changes/beside.js");
  const beside = readChangesBeside(path, text, env);
  const git = beside && !excluded ? undefined : await captureGit(cwd, env);
  if (beside) {
    if (!excluded) return beside;
    // Captured earlier, sent now: what the policy forbids now is left out now (paths against this checkout).
    const bundle = decodeChanges(beside);
    if (!bundle.ok) throw bundle.error;
    const top = git?.toplevel ?? cwd;
    return encodeChanges(withoutPaths(bundle.value, (relative) => excluded(join(top, relative))));
  }
  if (!git?.head)
    throw new HandoffError("usage", "--with-changes: the handoff names no changes bundle, and this folder is not a git checkout with a commit to capture one from", {
      hint: "run it in the checkout, or leave out --with-changes",
    });
  const { captureChanges } = await import("../../lib/changes/capture.js");
  return encodeChanges(await captureChanges(git.toplevel, env, excluded, { allowUnscanned }));
}

export interface PublishDocumentOptions extends PublishFileOptions {
  /** The document's text, as written locally. */
  text: string;
  /** Known by the caller that just wrote it; sniffed from the text otherwise. */
  label?: DocumentLabel;
  /** Set when the caller already redacted `text`: its summary is reported and no second scan runs. */
  redaction?: RedactionSummary;
  /** An encoded changes bundle (already scanned when it was captured) to seal with the document. */
  changes?: Uint8Array;
}

export interface PublishDeps {
  env: Env;
  home: string;
  /** Shows a progress line while a slow server call runs (a terminal only). */
  progress?: <T>(message: string, work: Promise<T>) => Promise<T>;
}

/** Publishes a document held in memory: redact (unless done), encrypt, send, keep the owner token. */
export async function publishDocument(options: PublishDocumentOptions, deps: PublishDeps): Promise<PublishResult> {
  const weak = passphraseWarning(options.passphrase, options.path);
  const { config, server, token, retry } = await destination(options, deps);
  const call = callOptionsFor(deps.env);

  const redacted = options.redaction !== undefined ? { text: options.text, summary: options.redaction } : redactForPublish(options.text, options.redact, options.path);
  const plaintext = new TextEncoder().encode(redacted.text);
  if (plaintext.length > MAX_PLAINTEXT) throw tooLarge(options.path, MAX_PLAINTEXT, "publish a pointer-first handoff, not a transcript");
  const label = options.label ?? detectFormat(redacted.text);
  const now = options.now?.() ?? new Date();
  const publishedAt = recordTimestamp(now);
  // The document's own creation time travels sealed when the envelope can carry it; a created_at
  // it cannot (another tool's `2026-07-10`, a leap second) must not stop the publish: the publish
  // time stands in, and the document keeps its own value inside.
  const createdAt = label.created_at !== undefined && SealMetaSchema.shape.created_at.safeParse(label.created_at).success ? label.created_at : publishedAt;
  const meta = { format: label.format, file_name: basename(options.path), created_at: createdAt };
  let changes: ChangesSummary | undefined;
  let sealing: { body: Uint8Array; trailing?: Uint8Array; meta: typeof meta } = { body: plaintext, meta };
  if (options.changes) {
    const bundle = decodeChanges(options.changes);
    if (!bundle.ok) throw bundle.error;
    changes = summarizeChanges(bundle.value);
    const framed = withChanges(plaintext, options.changes);
    const size = framed.body.length + framed.trailing.length;
    if (size > MAX_PLAINTEXT) {
      throw new HandoffError("too_large", `the handoff and its changes come to ${size} bytes, more than the ${MAX_PLAINTEXT} one envelope carries; the local handoff is kept: ${options.path}`, {
        hint: "commit some of the work and publish again, or leave out --with-changes",
        details: { path: options.path },
      });
    }
    sealing = { body: framed.body, trailing: framed.trailing, meta: { ...meta, ...framed.meta } };
  }
  // The envelope version (passphrase or not) and the payload format (changes or not) are
  // independent: either envelope carries either payload.
  const { ciphertext, key, passKey } = await sealHandoff(sealing.body, sealing.meta, {
    ...(sealing.trailing ? { trailing: sealing.trailing } : {}),
    ...(options.passphrase !== undefined ? { passphrase: options.passphrase } : {}),
  });
  // The server stores the read token's hash, so the id alone never opens (or spends) the link;
  // with a passphrase, neither does the link alone.
  const readToken = await deriveReadToken(key, passKey);
  const team = options.scope === "team" ? await teamCardFor(server, { env: deps.env, home: deps.home }, { text: redacted.text, createdAt, shareKey: key }) : undefined;
  if (team?.warning) config.warnings.push(team.warning);

  const owner: OwnerRecordInput = {
    configDir: config.configDir,
    server,
    path: options.path,
    urlOf: (id) => buildShareUrl(server, id, key).replace(/#.*$/, ""),
    expiresIn: options.expiresIn,
    maxViews: options.maxViews,
    scope: options.scope,
    createdAt: publishedAt,
    title: label.title,
    now,
    retry: retry.replace("<SERVER>", server),
  };
  // The owner token is drawn here and kept (a pending record) before the request that can create
  // the link: a folder that cannot hold it stops the publish with nothing sent.
  const ownerToken = newToken("owner");
  const warnings = [...config.warnings];
  let id = newHandoffId();
  let published;
  try {
    const request = {
      ...(options.expiresIn !== undefined ? { expiresIn: options.expiresIn } : {}),
      maxViews: options.maxViews,
      scope: options.scope,
      readToken,
      passphrase: passKey !== undefined,
      // The link alone's token too, so a reader's first try without the passphrase is not counted as a wrong one.
      ...(passKey === undefined ? {} : { linkToken: await deriveReadToken(key) }),
      ownerToken,
      ...(token ? { token } : {}),
      ...call,
    };
    // A team card names the id it is sealed for, so the id is drawn here and proposed.
    const send = async (drawn: string) => {
      const card = await team?.seal(drawn);
      warnings.push(...(await keepPending(owner, drawn, ownerToken)));
      return publishCiphertext(server, ciphertext, { ...request, proposedId: drawn, ...(card ? { teamCard: card } : {}) });
    };
    // A drawn id that is taken (128 random bits: a broken RNG, or a replay) is drawn again, once.
    const sending = send(id).catch(async (error) => {
      if (!isHandoffError(error) || error.details?.option !== PROPOSED_ID_HEADER) throw error;
      await forgetPending(config.configDir, id);
      id = newHandoffId();
      return send(id);
    });
    published = await (deps.progress ? deps.progress(`publishing to ${server} (waiting for the server)...`, sending) : sending);
  } catch (error) {
    if (!isHandoffError(error)) throw error;
    const maybeStored = await afterFailedPublish(owner, id, error);
    // A value this server refuses (its own --expires bounds) is never offered again: the retry
    // drops it, so the server's default applies.
    const refused = error.reason === "invalid_option" ? (/expires_in/.test(error.message) ? "--expires" : /max_views/.test(error.message) ? "--max-views" : undefined) : undefined;
    const again = (refused === "--expires" ? retryCommand({ ...options, expiresIn: undefined }) : refused === "--max-views" ? retryCommand({ ...options, maxViews: null }) : retry).replace(
      "<SERVER>",
      server,
    );
    const hint = refused
      ? `this server refuses that ${refused}; retry without it (the server's default), or with a value it accepts`
      : error.hint
        ? /\bretry$/.test(error.hint)
          ? error.hint
          : `${error.hint}; then retry`
        : "retry";
    throw new HandoffError(error.reason, `${refused === "--expires" ? expiresInWords(error.message, options.expiresIn) : error.message}${maybeStored}; the local handoff is kept: ${options.path}`, {
      // The transport's hints already end in "then retry": the command completes the sentence.
      hint: `${hint}: ${again}`,
      details: { ...error.details, path: options.path, retry_command: again },
      cause: error,
    });
  }
  warnings.push(...(await completeRecord(owner, published, { id, ownerToken }, call)));
  const url = buildShareUrl(server, published.id, key);
  warnings.push(...shareWarnings(published.scope));
  if (passKey !== undefined) warnings.push("the link alone opens nothing: send the passphrase apart from it (another channel), never next to it");
  if (weak) warnings.push(weak);
  return {
    path: options.path,
    url,
    id: published.id,
    expires_at: published.expires_at,
    max_views: published.max_views,
    scope: published.scope,
    passphrase: passKey !== undefined,
    warnings,
    resume_command: SHARE_RESUME_COMMAND,
    revoke_command: `handoff revoke ${published.id}`,
    redaction: redacted.summary,
    ...(changes ? { changes } : {}),
  };
}

/**
 * The strength rule for a new link's passphrase (`passphraseStrength`, docs/cli.md "Passphrase
 * strength"): too weak is refused before anything is sent, weak is a warning (returned), strong
 * says nothing. Readers are never judged: the rule is for choosing one.
 */
function passphraseWarning(passphrase: string | undefined, path: string): string | undefined {
  if (passphrase === undefined) return undefined;
  const { bits, verdict } = passphraseStrength(passphrase);
  if (verdict === "refuse") {
    throw new HandoffError(
      "invalid_option",
      `the passphrase is too weak: about ${bits} bits by Handoff's estimate, and a link's passphrase needs ${PASSPHRASE_REFUSE_BELOW_BITS} or more (no common password word, run or repeat counts for much); nothing was sent; the local handoff is kept: ${path}`,
      {
        hint: `choose 4 or more random words, or 12 or more random characters mixing cases, digits and punctuation, and give it on stdin (printf '%s' "$PASSPHRASE" | handoff publish ${shellQuote(path)} --passphrase) or at the prompt (docs/cli.md, "Passphrase strength")`,
        details: { option: "passphrase", bits, path },
      },
    );
  }
  if (verdict === "warn") {
    return `the passphrase is weak: about ${bits} bits by Handoff's estimate (${PASSPHRASE_WARN_BELOW_BITS} or more draw no warning). It holds against guessing through the server (20 wrong tries lock the link), not against someone who also holds the ciphertext (the server's operator, a storage leak); 5 random words would`;
  }
  return undefined;
}

/**
 * The server states its bounds in the API's unit (seconds of expires_in); the user wrote a
 * duration: say both bounds and the value the way --expires takes them.
 *
 * @example
 * ```ts
 * expiresInWords("expires_in must be a whole number from 300 to 2592000, got '240'", 240)
 * // "--expires 4m is outside what this server allows (5m to 30d)"
 * ```
 */
export function expiresInWords(message: string, expiresIn: number | undefined): string {
  const bounds = /from (\d+) to (\d+)/.exec(message);
  if (!bounds || expiresIn === undefined) return message;
  return `--expires ${formatDuration(expiresIn)} is outside what this server allows (${formatDuration(Number(bounds[1]))} to ${formatDuration(Number(bounds[2]))})`;
}

/** Where the document goes and with which token; a missing server or team token stops here. */
async function destination(options: PublishDocumentOptions, deps: PublishDeps) {
  const config = await resolvePublishConfig({ flags: { server: options.server }, env: deps.env, home: deps.home });
  const retry = retryCommand(options);
  if (!config.server) {
    throw new HandoffError("not_configured", `no publishing server is configured; the local handoff is kept: ${options.path}`, {
      hint: `pass --server URL, set HANDOFF_SERVER, or put "server" in ${config.configPath}; 'npm start' in the Handoff repository runs a local one at http://127.0.0.1:8787`,
      details: { path: options.path },
    });
  }
  const server = config.server;
  const value = options.scope === "team" ? config.teamToken : (config.token ?? config.teamToken);
  const token = value === undefined ? undefined : { value, server };
  if (options.scope === "team" && !token) {
    const command = retry.replace("<SERVER>", server);
    throw new HandoffError("not_configured", `--scope team needs a team token, and none is configured for this server; the local handoff is kept: ${options.path}`, {
      hint: `set HANDOFF_TEAM_TOKEN with HANDOFF_SERVER=${server}, or a "team_token" for ${server} in ${config.configPath} (ask your operator: npm run team); then retry: ${command}`,
      details: { path: options.path, retry_command: command },
    });
  }
  return { config, server, token, retry };
}

/**
 * The bytes that leave the machine are scanned again, whoever wrote the file. A kernel manifest
 * is redacted value by value (its JSON stays valid); anything else as text. Any failure of the
 * scan stops the publish: nothing unscanned is sent.
 */
function redactForPublish(text: string, redact: boolean, path: string): { text: string; summary: RedactionSummary } {
  if (!redact) return { text, summary: NOT_REDACTED };
  try {
    const collector = new RedactionCollector();
    const json = startsLikeJson(text) ? parseStrictJson(text) : undefined;
    if (json?.ok) {
      const value = collector.json(json.value);
      const summary = collector.summary();
      return { text: summary.total > 0 ? `${JSON.stringify(value, null, 2)}\n` : text, summary };
    }
    return { text: collector.text("body", text), summary: collector.summary() };
  } catch (error) {
    throw new HandoffError("redaction_failed", `secret scanning did not finish, so nothing was sent; the local handoff is kept: ${path}`, {
      hint: "retry; if it keeps failing, check the file for very large generated content",
      details: { path },
      cause: error,
    });
  }
}

function retryCommand(options: Omit<PublishFileOptions, "expiresIn"> & { expiresIn?: number | undefined }): string {
  const parts = ["handoff", "publish", shellQuote(options.path), "--server", "<SERVER>"];
  if (options.expiresIn !== undefined) parts.push("--expires", `${options.expiresIn}s`);
  if (options.maxViews !== null) parts.push("--max-views", String(options.maxViews));
  if (options.scope !== "link") parts.push("--scope", options.scope);
  if (!options.redact) parts.push("--no-redact");
  if (options.passphrase !== undefined) parts.push("--passphrase");
  if (options.withChanges) parts.push("--with-changes");
  if (options.allowUnscanned) parts.push("--allow-unscanned");
  return parts.join(" ");
}
