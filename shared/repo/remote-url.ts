/**
 * Remote URLs with credentials removed, before they are written anywhere.
 *
 * Decisions: http(s) URLs lose their whole userinfo (a "user" there is very often a token, as in
 * `https://x-access-token:TOKEN@host/...` or `https://TOKEN@host/...`); other URL schemes (ssh, git)
 * keep a user name but lose any password; scp-like `git@host:o/r.git` keeps its user name (an ssh
 * login name is not a secret) unless it carries a `:password`; query strings and fragments are
 * dropped entirely, since tokens travel there too and a repository identity never needs them.
 *
 * @example
 * ```ts
 * stripRemoteCredentials("https://user:tok@github.com/o/r.git?token=x") // "https://github.com/o/r.git"
 * stripRemoteCredentials("git@github.com:o/r.git")                      // "git@github.com:o/r.git"
 * ```
 */
export function stripRemoteCredentials(remote: string): string {
  const trimmed = remote.trim();
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(trimmed);
  if (scheme) return stripUrl(trimmed, (scheme[1] ?? "").toLowerCase());
  const scp = /^(?:([^@/]*)@)?([^:/]+):(?!\/\/)(.*)$/.exec(trimmed);
  if (scp && !/^[A-Za-z]$/.test(scp[2] ?? "")) {
    const [, user, host, path] = scp;
    const keepUser = user !== undefined && user !== "" && !user.includes(":");
    return `${keepUser ? `${user}@` : ""}${host}:${dropQuery(path ?? "")}`;
  }
  // A local path (or something we cannot read as a URL): drop anything that looks like userinfo.
  return dropQuery(trimmed.replace(/^[^/]*@/, ""));
}

function stripUrl(text: string, scheme: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return dropQuery(text.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/]*@/, "$1"));
  }
  if (scheme === "http" || scheme === "https") url.username = "";
  url.password = "";
  url.search = "";
  url.hash = "";
  return url.href;
}

function dropQuery(path: string): string {
  return path.replace(/[?#].*$/s, "");
}

/**
 * The repository's name as its remote spells it: the last path segment without `.git`.
 *
 * @example
 * ```ts
 * repoNameFromRemote("git@github.com:acme/Widget.git") // "Widget"
 * ```
 */
export function repoNameFromRemote(remote: string): string | undefined {
  const path = stripRemoteCredentials(remote)
    .replace(/[?#].*$/s, "")
    .replace(/[/\\:]+$/, "");
  const last = path.split(/[/\\:]/).pop() ?? "";
  const name = last.replace(/\.git$/i, "");
  return name === "" ? undefined : name;
}
