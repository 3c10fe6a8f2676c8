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
/** What a key body (base64 lines, `Proc-Type:`/`DEK-Info:` headers, JSON-escaped newlines) is made of. */
const BODY_CHAR = /[A-Za-z0-9+/=\s:,\\-]/;

export const PRIVATE_KEY_RULE: Rule = {
  ids: ["private-key"],
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
        stop = bodyStart;
        const limit = Math.min(text.length, bodyStart + MAX_BLOCK);
        while (stop < limit && BODY_CHAR.test(text[stop] ?? "")) stop++;
      }
      ctx.emit(start, stop, "private-key");
      begin.lastIndex = Math.max(begin.lastIndex, stop);
    }
  },
};
