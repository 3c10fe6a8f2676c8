import type { ReadStream } from "node:tty";
import { HandoffError } from "../../shared/errors.js";
import { MAX_PASSPHRASE_CHARS, passphraseProblem } from "../../shared/crypto/passphrase.js";
import { type Io, readStdin } from "./io.js";

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

/** Raw mode, so the terminal does not echo; Ctrl-C and Ctrl-D end the prompt as a user expects. */
function promptNoEcho(io: Io, prompt: string, limit: number): Promise<string> {
  const stdin = io.stdin as ReadStream;
  io.err(prompt);
  return new Promise((resolve, reject) => {
    let value = "";
    const done = (error?: HandoffError) => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.off("data", onData);
      io.err("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString("utf8")) {
        if (char === "\r" || char === "\n") return done();
        if (char === "\u0003") return done(new HandoffError("usage", "cancelled at the prompt"));
        if (char === "\u0004") return done();
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else value += char;
        if (value.length > limit) return done(new HandoffError("too_large", `more than ${limit} characters typed at the prompt`));
      }
    };
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}
