import type { Rule, RuleContext } from "./types.js";

/**
 * PEM and OpenSSH private key blocks (`-----BEGIN ... PRIVATE KEY-----` through the matching
 * END line), including PGP private key blocks.
 *
 * Written by hand rather than as one regex: a block may be kilobytes long, and a regex that
 * looks for the END line from every BEGIN is quadratic on a text of many BEGIN lines and no
 * END. Here the next END position is found once and reused while it lies ahead.
 */
const BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** A block with no END within this many characters is cut at the end of its base64 body. */
const MAX_BLOCK = 64 * 1024;
/** What a key body is made of: base64 lines, and `\n` escapes when the key sits in a JSON string. */
const BODY_CHAR = /[A-Za-z0-9+/=\r\n\\]/;
/** An RFC 1421 header line inside an encrypted PEM body (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: ...`). */
const HEADER_LINE = /^[A-Za-z][A-Za-z-]{0,31}: [^\n]{0,200}\n/;

/** Where a body without an END line stops: at the first line that is neither base64 nor a header. */
function endOfBody(text: string, from: number): number {
  const limit = Math.min(text.length, from + MAX_BLOCK);
  let at = from;
  while (at < limit) {
    // At a line start a header line may come; otherwise only body characters continue the body.
    const header = text[at - 1] === "\n" ? HEADER_LINE.exec(text.slice(at, at + 256)) : null;
    if (header !== null) {
      at += header[0].length;
    } else if (BODY_CHAR.test(text[at] ?? "")) {
      at++;
    } else {
      break;
    }
  }
  while (at > from && (text[at - 1] === "\n" || text[at - 1] === "\r")) at--;
  return at;
}

export const PRIVATE_KEY_RULE: Rule = {
  ids: ["private-key"],
  docs: {
    "private-key": {
      what: "PEM, OpenSSH and PGP private key blocks, BEGIN through END; a block without END up to the end of its base64 body",
      shape: "`-----BEGIN … PRIVATE KEY-----` …",
    },
  },
  prefixes: ["PRIVATE KEY"],
  find(ctx: RuleContext) {
    const { text } = ctx;
    const begin = new RegExp(BEGIN.source, "g");
    const end = new RegExp(END.source, "g");
    let nextEnd: { start: number; end: number } | undefined;
    let endSearchedFrom = -1;
    let noMoreEnd = false;
    let count = 0;
    for (let match = begin.exec(text); match !== null; match = begin.exec(text)) {
      if ((++count & 0xff) === 0) ctx.tick();
      const start = match.index;
      const bodyStart = start + match[0].length;
      if (!noMoreEnd && (nextEnd === undefined || nextEnd.start < bodyStart) && endSearchedFrom < bodyStart) {
        end.lastIndex = bodyStart;
        const found = end.exec(text);
        endSearchedFrom = bodyStart;
        nextEnd = found === null ? undefined : { start: found.index, end: found.index + found[0].length };
        noMoreEnd = found === null;
      }
      let stop: number;
      if (nextEnd !== undefined && nextEnd.start >= bodyStart && nextEnd.start - bodyStart <= MAX_BLOCK) {
        stop = nextEnd.end;
      } else {
        // No END (a truncated paste): take the body as far as it looks like one.
        stop = endOfBody(text, bodyStart);
      }
      ctx.emit(start, stop, "private-key");
      begin.lastIndex = Math.max(begin.lastIndex, stop);
    }
  },
};
