import { resolve } from "node:path";
import { HandoffError } from "../../../shared/errors.js";
import { isShareUrl } from "../../../shared/api/share-url.js";
import { detectFormat } from "../../../shared/document/sniff.js";
import { MAX_DOCUMENT_BYTES } from "../../../shared/document/size-limits.js";
import { implement } from "../command.js";
import { terminalSafe } from "../../platform/terminal.js";
import { decodeUtf8, readRegularFile, tooLarge } from "../../platform/read-file.js";
import type { showSpec } from "./spec.js";
import type { PassphraseSource } from "../../lib/share-source.js";
import { readPassphrase } from "../secret-input.js";
import type { UrlInput } from "../url-input.js";

const PASSPHRASE_EXAMPLE = 'printf \'%s\\n%s\' "$URL" "$PASSPHRASE" | handoff show --url-stdin --passphrase';

export interface ShowResult {
  source: string;
  format: string;
  text: string;
  /** After reading a share link: views it has left (null: unlimited); absent for files. */
  views_left?: number | null;
}

export const command = implement<typeof showSpec>()({
  async run({ flags, positionals, io, ctx }): Promise<ShowResult> {
    const fromStdin = flags["url-stdin"] === true;
    const fromPrompt = flags.paste === true;
    if ((fromStdin || fromPrompt) && (positionals.length > 0 || (fromStdin && fromPrompt))) {
      throw new HandoffError("usage", `${fromStdin ? "--url-stdin" : "--paste"} reads the share URL itself: pass no PATH or URL with it, and only one of --url-stdin and --paste`, {
        hint: "printf '%s' \"$URL\" | handoff show --url-stdin",
      });
    }
    if (!fromStdin && !fromPrompt && positionals.length === 0)
      throw new HandoffError("usage", "show needs a handoff file or share URL", { hint: "run 'handoff show FILE', or for a link: handoff show --paste" });
    // A file needs nothing of share links: not the module, and not stdin's terminal check (loading
    // the tty module for a stdin of /dev/null, what an agent gives a command, cost 5 ms).
    if (!fromStdin && !fromPrompt && !isShareUrl(positionals[0]!)) {
      if (flags.passphrase) throw new HandoffError("usage", "--passphrase goes with a share URL", { hint: PASSPHRASE_EXAMPLE });
      return showFile(positionals[0]!, ctx.cwd);
    }
    const urls = await import("../url-input.js");
    let passphrase: PassphraseSource = urls.askPassphrase(io);
    let input: UrlInput | undefined;
    if (fromStdin && flags.passphrase) {
      const { passphrase: given, ...url } = await urls.urlAndPassphraseFromStdin(io, "show");
      input = url;
      passphrase = { given };
    } else if (fromStdin || fromPrompt) {
      input = await urls[fromStdin ? "urlFromStdin" : "urlFromPrompt"](io, "show");
    }
    const source = input?.url ?? positionals[0]!;
    if (flags.passphrase && !isShareUrl(source)) throw new HandoffError("usage", "--passphrase goes with a share URL", { hint: PASSPHRASE_EXAMPLE });
    if (flags.passphrase && passphrase.given === undefined) passphrase = { given: await readPassphrase(io, { confirm: false }) };
    if (isShareUrl(source)) {
      const { readShareUrl } = await import("../../lib/share-source.js");
      const shared = await readShareUrl(source, ctx, passphrase);
      if (shared === undefined) throw new HandoffError("usage", "show reads files and share links; this URL is not a share link", { hint: "download the page, then run 'handoff show FILE'" });
      const text = decodeUtf8(shared.plaintext, "the shared handoff", "unreadable");
      return { source: source.replace(/#.*$/s, ""), format: detectFormat(text).format, text, views_left: shared.views_left };
    }
    return showFile(source, ctx.cwd);
  },
  human(result) {
    const left = result.views_left === undefined ? undefined : result.views_left === null ? "unlimited views" : `${result.views_left} view${result.views_left === 1 ? "" : "s"} left`;
    // The document is someone else's text: it cannot drive the terminal.
    return { out: terminalSafe(result.text), ...(left ? { err: `(${result.source}: ${left})` } : {}) };
  },
  outcome: () => "ok",
});

/** A handoff file as it is. */
function showFile(source: string, cwd: string): ShowResult {
  const bytes = readRegularFile(resolve(cwd, source), MAX_DOCUMENT_BYTES, { what: "the handoff", label: source });
  if (bytes === "too_large") throw tooLarge(source, MAX_DOCUMENT_BYTES, "show prints handoffs, not logs");
  const text = decodeUtf8(bytes, source, "unreadable");
  return { source, format: detectFormat(text).format, text };
}
