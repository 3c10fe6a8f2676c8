import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { CHECKOUT_LIMITS, type CheckoutFacts, statusWord } from "../../shared/hook/checkout-body.js";
import type { GitCapture } from "../lib/git.js";
import type { Env } from "../platform/env.js";
import { runGit } from "../platform/git.js";

/**
 * What the checkout holds, for an automatic handoff written without a transcript
 * (shared/hook/checkout-body.ts): the branch facts `captureGit` already read, the uncommitted
 * entries and the latest commits. Two more git processes, only on that path.
 */
export async function checkoutFacts(git: GitCapture, env: Env): Promise<CheckoutFacts> {
  const [status, log] = await Promise.all([
    runGit(["status", "--porcelain=v1", "-z", "--untracked-files=all"], { cwd: git.toplevel, env, maxBytes: 1 << 20 }),
    git.head === undefined ? undefined : runGit(["log", `-${CHECKOUT_LIMITS.commits}`, "--no-color", "--format=%h%x09%s"], { cwd: git.toplevel, env, maxBytes: 1 << 16 }),
  ]);
  const entries = status.failure === undefined ? porcelainEntries(status.stdout) : [];
  const facts: CheckoutFacts = {
    changes: entries.slice(0, CHECKOUT_LIMITS.files),
    changed: status.failure === undefined ? entries.length : git.dirty,
    commits: log?.failure === undefined && log !== undefined ? commitLines(log.stdout) : [],
  };
  if (git.branch !== undefined) facts.branch = git.branch;
  if (git.head !== undefined) facts.head = git.head;
  if (git.upstream !== undefined) facts.upstream = git.upstream;
  if (git.ahead !== undefined) facts.ahead = git.ahead;
  return facts;
}

/** `git status --porcelain=v1 -z`: `XY path` entries; a rename or copy is followed by its old path. */
function porcelainEntries(output: string): { path: string; status: string }[] {
  const parts = output.split("\0");
  const entries: { path: string; status: string }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i] ?? "";
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    entries.push({ path: entry.slice(3), status: statusWord(code) });
    if (/[RC]/.test(code)) i++;
  }
  return entries;
}

function commitLines(output: string): { hash: string; subject: string }[] {
  return output
    .split("\n")
    .filter((line) => line.includes("\t"))
    .map((line) => ({ hash: line.slice(0, line.indexOf("\t")), subject: line.slice(line.indexOf("\t") + 1) }));
}

/**
 * Where Cursor keeps a conversation's transcript when its event names none (its command-line
 * agent always sends `transcript_path: null`): `~/.cursor/projects/<workspace>/agent-transcripts/`,
 * the workspace folder with its leading `/` dropped and every other character that is not a
 * letter or digit made `-`, then `<id>.jsonl` or `<id>/<id>.jsonl`. Cursor does not document it:
 * the file is used only when it is there and regular.
 */
export function cursorTranscript(home: string, workspace: string, conversationId: string): string | undefined {
  if (!/^[\w-]{1,128}$/.test(conversationId)) return undefined;
  const folder = join(home, ".cursor", "projects", workspace.replace(/^\/+/, "").replace(/[^A-Za-z0-9]/g, "-"), "agent-transcripts");
  for (const path of [join(folder, `${conversationId}.jsonl`), join(folder, conversationId, `${conversationId}.jsonl`)]) {
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return undefined;
}
