import { basename } from "node:path";
import type { Scope } from "../../shared/api/limits.js";
import { shellQuote } from "../../shared/ce/resume-command.js";
import { sealHandoff } from "../../shared/crypto/envelope.js";
import { deriveReadToken } from "../../shared/crypto/read-token.js";
import { HandoffError, isHandoffError } from "../../shared/errors.js";
import { parseStrictJson } from "../../shared/kernel/strict-json.js";
import { detectFormat } from "../../shared/orient/detect-format.js";
import { NOT_REDACTED, RedactionCollector, type RedactionSummary } from "../../shared/redact/fields.js";
import { buildShareUrl } from "../../shared/share-url.js";
import { resolvePublishConfig } from "../config.js";
import { savePublished } from "../published-store.js";
import { readTextFile } from "../read-file.js";
import { callOptionsFor, publishCiphertext } from "./server-api.js";

/**
 * Publishing a local handoff: redact (fail closed), encrypt on this machine, send ciphertext,
 * keep the owner token. The local file is only ever read: a failed publish leaves it exactly as
 * it was, and the error names it and prints the command that retries.
 */

export const PUBLISH_SOURCE_LIMIT = 1024 * 1024;

export interface PublishFileOptions {
  path: string;
  expiresIn?: number;
  maxViews: number | null;
  scope: Scope;
  server?: string;
  redact: boolean;
  env: NodeJS.ProcessEnv;
  home: string;
  now?: () => Date;
}

export interface PublishResult {
  path: string;
  url: string;
  id: string;
  expires_at: string;
  max_views: number | null;
  scope: Scope;
  warnings: string[];
  resume_command: string;
  revoke_command: string;
  redaction: RedactionSummary;
}

export const SHARE_WARNINGS = [
  "the URL is the key: whoever holds it can read this handoff until it expires, its views are used up, or you revoke it",
  "never pass it through a URL shortener or a chat that unfurls links: a link preview can spend a view",
];

export async function publishFile(options: PublishFileOptions): Promise<PublishResult> {
  const config = await resolvePublishConfig({ flags: { server: options.server }, env: options.env, home: options.home });
  const retry = retryCommand(options);
  const call = callOptionsFor(options.env);
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

  const text = readTextFile(options.path, PUBLISH_SOURCE_LIMIT, { what: "the handoff", tooLargeHint: "publish a pointer-first handoff, not a transcript" });
  const redacted = redactForPublish(text, options.redact, options.path);
  const label = detectFormat(redacted.text);
  const createdAt = label.created_at ?? (options.now?.() ?? new Date()).toISOString();
  const { ciphertext, key } = await sealHandoff(new TextEncoder().encode(redacted.text), { format: label.format, file_name: basename(options.path), created_at: createdAt });
  // The server stores the read token's hash, so the id alone never opens (or spends) the link.
  const readToken = await deriveReadToken(key);

  let published;
  try {
    published = await publishCiphertext(server, ciphertext, { ...(options.expiresIn !== undefined ? { expiresIn: options.expiresIn } : {}), maxViews: options.maxViews, scope: options.scope, readToken, ...(token ? { token } : {}), ...call });
  } catch (error) {
    if (!isHandoffError(error)) throw error;
    throw new HandoffError(error.reason, `${error.message}; the local handoff is kept: ${options.path}`, {
      // The transport's hints already end in "then retry": the command completes the sentence.
      hint: `${error.hint ? (/\bretry$/.test(error.hint) ? error.hint : `${error.hint}; then retry`) : "retry"}: ${retry.replace("<SERVER>", server)}`,
      details: { ...error.details, path: options.path, retry_command: retry.replace("<SERVER>", server) },
      cause: error,
    });
  }
  const url = buildShareUrl(server, published.id, key);
  const warnings = [...config.warnings];
  try {
    warnings.push(
      ...(await savePublished(config.configDir, {
        id: published.id,
        server,
        url_without_key: url.slice(0, url.indexOf("#")),
        owner_token: published.owner_token,
        expires_at: published.expires_at,
        max_views: published.max_views,
        scope: published.scope,
        created_at: (options.now?.() ?? new Date()).toISOString(),
        local_path: options.path,
        ...(label.title !== undefined ? { title: label.title } : {}),
      })),
    );
  } catch (error) {
    warnings.push(`could not keep the owner token locally (${error instanceof Error ? error.message : String(error)}): 'handoff revoke' will not work for this link`);
  }
  warnings.push(...SHARE_WARNINGS);
  return {
    path: options.path,
    url,
    id: published.id,
    expires_at: published.expires_at,
    max_views: published.max_views,
    scope: published.scope,
    warnings,
    resume_command: `handoff resume ${shellQuote(url)}`,
    revoke_command: `handoff revoke ${published.id}`,
    redaction: redacted.summary,
  };
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
    const json = /^\s*\{/.test(text) ? parseStrictJson(text) : undefined;
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

function retryCommand(options: PublishFileOptions): string {
  const parts = ["handoff", "publish", shellQuote(options.path), "--server", "<SERVER>"];
  if (options.expiresIn !== undefined) parts.push("--expires", `${options.expiresIn}s`);
  if (options.maxViews !== null) parts.push("--max-views", String(options.maxViews));
  if (options.scope !== "link") parts.push("--scope", options.scope);
  if (!options.redact) parts.push("--no-redact");
  return parts.join(" ");
}
