import { HandoffError } from "../../shared/errors.js";
import { passphraseProblem } from "../../shared/crypto/passphrase.js";
import { type Io, readStdin } from "../platform/io.js";
import { readHidden, readPassphrase } from "./secret-input.js";
import type { PassphraseSource } from "../lib/share-source.js";

/**
 * The two ways a share URL reaches `resume` and `show` without being a command-line word (a
 * word shows in the process list and stays in shell history, and the URL's #fragment is its
 * key): piped on stdin (`--url-stdin`, for agents and scripts) or pasted at a prompt that does
 * not echo it (`--paste`, for people). `label` is the URL without its key, for output.
 */

/** A share URL is short; more than this is not one. */
const URL_LIMIT = 8 * 1024;

export interface UrlInput {
  url: string;
  label: string;
}

/** `--url-stdin`: exactly one http(s) URL on stdin (surrounding whitespace and one newline allowed). */
export async function urlFromStdin(io: Io, command: "resume" | "show"): Promise<UrlInput> {
  const example = `printf '%s' "$URL" | handoff ${command} --url-stdin`;
  if (io.stdinIsTTY)
    throw new HandoffError("usage", "--url-stdin reads the share URL from stdin, and stdin is a terminal", { hint: `${example} (or, typing it yourself: handoff ${command} --paste)` });
  const bytes = await readStdin(io, URL_LIMIT);
  if (bytes === "too_large") throw new HandoffError("usage", `--url-stdin: stdin holds more than ${URL_LIMIT} bytes, which is not one share URL`, { hint: "pipe only the URL" });
  return checked(new TextDecoder().decode(bytes), "--url-stdin: stdin must hold one http(s) share URL and nothing else", example);
}

/**
 * `--url-stdin --passphrase`: the URL on stdin's first line, the passphrase on the rest (one
 * trailing line break dropped, as `readPassphrase` does), so neither is ever a command-line word.
 */
export async function urlAndPassphraseFromStdin(io: Io, command: "resume" | "show"): Promise<UrlInput & { passphrase: string }> {
  const example = `printf '%s\\n%s' "$URL" "$PASSPHRASE" | handoff ${command} --url-stdin --passphrase`;
  if (io.stdinIsTTY)
    throw new HandoffError("usage", "--url-stdin reads the share URL from stdin, and stdin is a terminal", { hint: `${example} (or, typing them yourself: handoff ${command} --paste)` });
  const bytes = await readStdin(io, URL_LIMIT * 2);
  if (bytes === "too_large")
    throw new HandoffError("usage", `--url-stdin --passphrase: stdin holds more than ${URL_LIMIT * 2} bytes, which is not one share URL and its passphrase`, {
      hint: "pipe only the URL and the passphrase",
    });
  const text = new TextDecoder().decode(bytes);
  const newline = text.indexOf("\n");
  const input = checked(newline === -1 ? text : text.slice(0, newline), "--url-stdin --passphrase: stdin's first line must hold one http(s) share URL", example);
  const passphrase = newline === -1 ? "" : text.slice(newline + 1).replace(/\r?\n$/, "");
  const problem = passphraseProblem(passphrase);
  if (problem)
    throw new HandoffError(passphrase === "" ? "empty_input" : "invalid_option", `--url-stdin --passphrase: ${problem}`, { hint: `put the passphrase on the line after the URL: ${example}` });
  return { ...input, passphrase };
}

/** `--paste`: the share URL typed or pasted at a prompt that does not echo it. */
export async function urlFromPrompt(io: Io, command: "resume" | "show"): Promise<UrlInput> {
  if (!io.stdinIsTTY)
    throw new HandoffError("usage", "--paste asks for the share URL on the terminal, and stdin is not one", {
      hint: `an agent or script pipes it instead: printf '%s' "$URL" | handoff ${command} --url-stdin`,
    });
  const answer = await readHidden(io, "Paste the share URL (it is not shown), then Enter: ", URL_LIMIT);
  if (answer === "cancelled") throw new HandoffError("usage", "--paste: cancelled; nothing was read", { hint: `run 'handoff ${command} --paste' again` });
  return checked(answer === "too_long" ? "" : answer, "--paste: that is not one http(s) share URL", `copy the whole link, including everything after '#', and run 'handoff ${command} --paste' again`);
}

function checked(text: string, problem: string, hint: string): UrlInput {
  const url = text.trim();
  if (url === "" || /\s/.test(url) || !/^https?:\/\//i.test(url)) throw new HandoffError("usage", problem, { hint });
  return { url, label: url.replace(/#.*$/s, "") };
}

/**
 * On a terminal, a passphrase link's passphrase is asked for once the server says it needs one
 * (no view is spent by the refused read); off a terminal the error says to pass --passphrase.
 */
export function askPassphrase(io: Io): PassphraseSource {
  if (!io.stdinIsTTY) return {};
  return {
    ask: () => {
      io.err("This share link needs a passphrase (no view was spent).");
      return readPassphrase(io, { confirm: false });
    },
  };
}
