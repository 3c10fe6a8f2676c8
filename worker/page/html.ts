import { PAGE_STYLE } from "./page-style.js";

/** Text made safe for HTML text and quoted attribute values: the five special characters as references. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The start of every page, up to its opened `<main>`: the head with `title` (plain text) and the
 * one stylesheet (each page's CSP allows it by hash), then the site's header. `extraHead` is HTML
 * the page adds to its head (the share page's script).
 */
export function pageStart(title: string, extraHead = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
${extraHead}</head>
<body>
<header class="site"><p class="brand">Handoff</p></header>
<main>
`;
}
