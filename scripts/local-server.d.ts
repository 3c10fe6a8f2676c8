export interface LocalServerOptions {
  /** Port on 127.0.0.1; a free one when absent. */
  port?: number;
  /** State directory (R2, KV, Durable Objects); default .wrangler/state. */
  persistTo?: string;
  /** Wrangler config file, relative to the repository root; default wrangler.toml. */
  config?: string;
  /** Vars layered over the config's [vars] (`--var NAME:VALUE`). */
  vars?: Record<string, string>;
  /** .env files whose entries become secrets (`--env-file`), e.g. the local ADMIN_TOKEN. */
  envFiles?: string[];
  /** wrangler's --log-level; default "warn". */
  logLevel?: string;
  /** Devtools inspector port; a free one when absent. */
  inspectorPort?: number;
  /** How long to wait for /healthz; default 180 000 ms (a failed start ends the wait at once). */
  readyTimeoutMs?: number;
}

export interface LocalServer {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Ends wrangler and workerd (their process group) and waits for them. */
  stop(): Promise<void>;
  /** Settles when wrangler exits, for whatever reason (stop() or a crash). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startLocalServer(options?: LocalServerOptions): Promise<LocalServer>;

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number>;
