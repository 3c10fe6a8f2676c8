/**
 * The page a browser sees at `/`: what this server is, how to point the CLI at it, where the docs
 * are. It reads no storage and says nothing about what is stored: the same page for every visitor
 * of a deployment, so it may be cached. No script; the share pages' stylesheet.
 */
import { DEFAULT_CSP } from "../http/security-headers.js";
import { escapeHtml, pageStart } from "./html.js";
import { pageStyleSource } from "./page-style.js";

export interface LandingFacts {
  /** This server's origin as the visitor reached it (`https://handoff.example.com`), for the commands. */
  origin: string;
  /** Whether the server takes handoffs without a token (`npm start` does; a deployment does not). */
  anonymousPublish: boolean;
}

/** How long browsers and caches may keep the page: it changes only with a deployment. */
export const LANDING_CACHE_CONTROL = "public, max-age=3600";

function publishWords(anonymous: boolean): string {
  if (anonymous) return `<p>This server takes handoffs without a token, so <code class="cmd">handoff publish FILE</code> works as soon as the CLI points here.</p>`;
  return `<p>Publishing here needs a token from this server's operator: a publish token, which <code class="cmd">handoff config set token -</code> reads from stdin, or a team invite, which <code class="cmd">handoff team join</code> reads. Opening a share link needs no token, except a link limited to a team: its members open it with the CLI.</p>`;
}

/** The landing page for a server reached at `facts.origin`. */
export function landingPageHtml(facts: LandingFacts): string {
  const origin = escapeHtml(facts.origin);
  return `${pageStart("Handoff publishing server")}<h1>A Handoff publishing server</h1>
<p>This server keeps handoffs that the Handoff CLI publishes: the working context (decisions, state, warnings) an AI coding session passes to the next session, machine or teammate.</p>
<p>It stores only ciphertext. The CLI encrypts each handoff before it leaves the machine, and the key travels in the share link's <code>#fragment</code>, the part after <code>#</code>, which a browser never sends to a server. So this server cannot read what it keeps, and this page lists none of it.</p>
<h2>Point the CLI at this server</h2>
<p>Once, on each machine that publishes or resumes:</p>
<pre>handoff config set server ${origin}</pre>
<p>Or for one shell (a script, a CI job):</p>
<pre>export HANDOFF_SERVER=${origin}</pre>
${publishWords(facts.anonymousPublish)}
<p>Someone who receives a share link opens it in a browser, or runs <code class="cmd">handoff resume --paste</code> and pastes the link at its prompt.</p>
<h2>Documentation</h2>
<p><code class="cmd">handoff --help</code> lists the commands, and <code class="cmd">handoff COMMAND --help</code> explains one. The guides are in the <code>docs/</code> folder of the Handoff repository, and of the installed package: <code>docs/cli.md</code> (every command), <code>docs/deploy.md</code> (running a server like this one) and <code>docs/api.md</code> (this server's HTTP API).</p>
</main>
<footer class="foot"><p>A share link is a secret: whoever holds it can read its handoff until the link's limits run out.</p></footer>
</body>
</html>
`;
}

let policy: Promise<string> | undefined;

/** The page's CSP: nothing but its inline style, by hash. Computed once per isolate. */
export function landingPageCsp(): Promise<string> {
  policy ??= pageStyleSource().then((style) => [DEFAULT_CSP, `style-src ${style}`, "img-src 'none'"].join("; "));
  return policy;
}
