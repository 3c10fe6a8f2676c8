import type { ReadStream } from "node:tty";
import { HandoffError } from "../../shared/errors.js";
import { MAX_PASSPHRASE_CHARS, passphraseProblem } from "../../shared/crypto/passphrase.js";
import { type Io, readStdin } from "../platform/io.js";

/**
 * A secret (an invite, a team token, a passphrase) from stdin, never from argv, where every
 * process on the machine could read it (ps). On a terminal it is asked for with a prompt on
 * stderr and not echoed; from a pipe, stdin is read to its end. Surrounding whitespace and
 * line breaks are dropped; an empty answer is an `empty_input` error naming `what`.
 */
export async function readSecret(io: Io, options: { what: string; prompt: string; limit: number }): Promise<string> {
  const text = io.stdinIsTTY ? await promptNoEcho(io, options.prompt, options.limit) : await piped(io, options);
  const value = text.trim();
  if (value === "") throw new HandoffError("empty_input", `no ${options.what} was given`, { hint: `pipe it in (printf '%s' "$VALUE" | handoff ...) or type it at the prompt` });
  return value;
}

/**
 * A link's passphrase from stdin or a no-echo prompt; `confirm` asks twice on a terminal (a
 * publisher's typo would lock every reader out). Its limits are the KDF's (`passphraseProblem`).
 */
export async function readPassphrase(io: Io, options: { confirm: boolean }): Promise<string> {
  const prompt = "Passphrase (it is not shown): ";
  const limit = MAX_PASSPHRASE_CHARS * 4 + 2;
  // Only a trailing line break is dropped: spaces inside and around a passphrase are part of it.
  const read = async (text: string) => (io.stdinIsTTY ? await promptNoEcho(io, text, limit) : await piped(io, { what: "passphrase", limit })).replace(/\r?\n$/, "");
  const passphrase = await read(prompt);
  const problem = passphraseProblem(passphrase);
  if (problem) throw new HandoffError(passphrase === "" ? "empty_input" : "invalid_option", problem, { hint: "give a passphrase of 1 to 1024 characters, on stdin or at the prompt" });
  if (options.confirm && io.stdinIsTTY && (await read("Again, to confirm: ")) !== passphrase) {
    throw new HandoffError("invalid_document", "the two passphrases typed differ; nothing was sent", { hint: "run the command again" });
  }
  return passphrase;
}

async function piped(io: Io, options: { what: string; limit: number }): Promise<string> {
  const bytes = await readStdin(io, options.limit);
  if (bytes === "too_large") throw new HandoffError("too_large", `stdin holds more than ${options.limit} bytes, which is not one ${options.what}`, { hint: `pipe only the ${options.what}` });
  return new TextDecoder().decode(bytes);
}

/**
 * Reads one line from a terminal without echoing it (a secret: a passphrase, a token, a share URL's
 * #key), the prompt on stderr. Raw mode is switched off again whatever happens; Ctrl-C or Ctrl-D
 * cancels (nothing typed so far is used). Backspace edits. More than `limit` characters is refused,
 * not cut. The one no-echo prompt: secrets and `--paste` both use it.
 */
export function readHidden(io: Io, prompt: string, limit: number): Promise<string | "cancelled" | "too_long"> {
  const input = io.stdin as ReadStream;
  // Raw mode before the prompt: whatever is typed once the prompt shows is neither echoed nor
  // turned into a signal by the terminal.
  const raw = typeof input.setRawMode === "function";
  if (raw) input.setRawMode(true);
  io.err(prompt);
  return new Promise((resolve) => {
    let value = "";
    const finish = (answer: string | "cancelled" | "too_long") => {
      input.off("data", onData);
      if (raw) input.setRawMode(false);
      input.pause();
      io.err("\n");
      resolve(answer);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of typeof chunk === "string" ? chunk : chunk.toString("utf8")) {
        if (char === "\r" || char === "\n") return finish(value);
        if (char === "\u0003" || char === "\u0004") return finish("cancelled");
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else value += char;
        if (value.length > limit) return finish("too_long");
      }
    };
    input.on("data", onData);
    input.resume();
  });
}

async function promptNoEcho(io: Io, prompt: string, limit: number): Promise<string> {
  const answer = await readHidden(io, prompt, limit);
  if (answer === "cancelled") throw new HandoffError("usage", "cancelled at the prompt; nothing was read", { hint: "run the command again" });
  if (answer === "too_long") throw new HandoffError("too_large", `more than ${limit} characters typed at the prompt`, { hint: "type or paste only the one value" });
  return answer;
}
