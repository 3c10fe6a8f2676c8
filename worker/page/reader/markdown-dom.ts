// Markdown to DOM for untrusted text. marked only tokenizes; this file builds every element
// itself with createElement and textContent, so no string is ever parsed as HTML: raw HTML in the
// handoff (a tag, a comment, <script>, <base>, <meta>) comes out as the text it is. A link keeps
// its href only when the browser's own URL parser resolves it to http(s); an image becomes a
// link or its alt text, so the page loads nothing the handoff names.
import { Lexer, type Token, type Tokens } from "marked";
import { safeHref } from "./safe-href.js";

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", copy: "©", reg: "®", mdash: "—", ndash: "–", hellip: "…" };

/**
 * marked leaves character references in text as written; decode the numeric ones and the common
 * names (others stay as typed: a table of every HTML entity would double the script).
 */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] !== "#") return NAMED[name] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
  });
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, children: Node[] = [], text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  node.append(...children);
  return node;
}

const textNode = (text: string) => document.createTextNode(text);

function link(href: string, base: string, children: Node[]): Node[] {
  // marked leaves character references in a destination as written; CommonMark decodes them.
  const target = safeHref(decodeEntities(href), base);
  if (target === null) return children;
  const anchor = element("a", children);
  anchor.href = target;
  // A new tab: following a link must not throw away the handoff this view paid for.
  anchor.target = "_blank";
  anchor.rel = "noopener noreferrer nofollow";
  return [anchor];
}

function inline(tokens: Token[] | undefined, base: string): Node[] {
  const out: Node[] = [];
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "strong":
      case "em":
      case "del": {
        const tag = token.type === "strong" ? "strong" : token.type === "em" ? "em" : "del";
        out.push(element(tag, inline((token as Tokens.Strong).tokens, base)));
        break;
      }
      case "codespan":
        out.push(element("code", [], (token as Tokens.Codespan).text));
        break;
      case "br":
        out.push(element("br"));
        break;
      case "link": {
        const t = token as Tokens.Link;
        out.push(...link(t.href, base, inline(t.tokens, base)));
        break;
      }
      case "image": {
        const t = token as Tokens.Image;
        out.push(...link(t.href, base, [textNode(`[image: ${decodeEntities(t.text) || "no description"}]`)]));
        break;
      }
      case "checkbox":
        out.push(textNode((token as Tokens.Checkbox).checked ? "☑ " : "☐ "));
        break;
      case "escape":
        out.push(textNode((token as Tokens.Escape).text));
        break;
      case "html":
        out.push(textNode(token.raw));
        break;
      case "text": {
        const t = token as Tokens.Text;
        out.push(...(t.tokens ? inline(t.tokens, base) : [textNode(decodeEntities(t.text))]));
        break;
      }
      default:
        out.push(textNode(token.raw));
    }
  }
  return out;
}

function table(token: Tokens.Table, base: string): HTMLElement {
  const cell = (tag: "th" | "td", c: Tokens.TableCell) => {
    const node = element(tag, inline(c.tokens, base));
    if (c.align) node.className = `align-${c.align}`;
    return node;
  };
  const head = element("thead", [
    element(
      "tr",
      token.header.map((c) => cell("th", c)),
    ),
  ]);
  const body = element(
    "tbody",
    token.rows.map((row) =>
      element(
        "tr",
        row.map((c) => cell("td", c)),
      ),
    ),
  );
  // Wide tables scroll inside their own box; a scrolling box must be reachable by keyboard.
  const wrap = element("div", [element("table", [head, body])]);
  wrap.className = "table-wrap";
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", "Table");
  return wrap;
}

/** `shift` moves every heading down so the handoff's top level sits just below the page's h1. */
function blocks(tokens: Token[], base: string, shift: number): Node[] {
  const out: Node[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case "space":
      case "def":
        break;
      case "heading": {
        const t = token as Tokens.Heading;
        const level = Math.max(2, Math.min(6, t.depth + shift)) as 2 | 3 | 4 | 5 | 6;
        out.push(element(`h${level}`, inline(t.tokens, base)));
        break;
      }
      case "paragraph":
        out.push(element("p", inline((token as Tokens.Paragraph).tokens, base)));
        break;
      // A tight list item's text and a task's box are inline content at block level.
      case "text":
      case "checkbox":
        out.push(...inline([token], base));
        break;
      case "code": {
        const t = token as Tokens.Code;
        const code = element("code", [], t.text);
        const lang = /^[\w+#.-]{1,40}/.exec(t.lang ?? "")?.[0];
        if (lang) code.className = `language-${lang}`;
        out.push(element("pre", [code]));
        break;
      }
      case "blockquote":
        out.push(element("blockquote", blocks((token as Tokens.Blockquote).tokens, base, shift)));
        break;
      case "list": {
        const t = token as Tokens.List;
        const list = element(
          t.ordered ? "ol" : "ul",
          t.items.map((item) => element("li", blocks(item.tokens, base, shift))),
        );
        if (t.ordered && typeof t.start === "number" && t.start !== 1) (list as HTMLOListElement).start = t.start;
        out.push(list);
        break;
      }
      case "table":
        out.push(table(token as Tokens.Table, base));
        break;
      case "hr":
        out.push(element("hr"));
        break;
      case "html":
        // Raw HTML blocks are shown as the source they are.
        out.push(element("p", [], token.raw.replace(/\n+$/, "")));
        break;
      default:
        out.push(element("p", [], token.raw));
    }
  }
  return out;
}

/**
 * The Markdown `source` as DOM nodes; relative links resolve against `base` (the page's URL).
 *
 * @example
 * ```ts
 * container.replaceChildren(markdownToNodes("# Plan\n\n- [x] tests", location.href));
 * ```
 */
export function markdownToNodes(source: string, base: string): DocumentFragment {
  const tokens = Lexer.lex(source, { gfm: true });
  // The page's h1 is the handoff's title; the body's shallowest heading level becomes h2.
  const depths = tokens.filter((token) => token.type === "heading").map((token) => (token as Tokens.Heading).depth);
  const shift = 2 - (depths.length === 0 ? 1 : Math.min(...depths));
  const fragment = document.createDocumentFragment();
  fragment.append(...blocks(tokens, base, shift));
  return fragment;
}
