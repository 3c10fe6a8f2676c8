/**
 * The copyable command that ends `handoff create`. The source is always single-quoted (a `'`
 * inside becomes `'\''`), so any path, including spaces, `$`, backticks or newlines, pastes
 * verbatim into a POSIX shell.
 *
 * @example
 * ```ts
 * resumeCommand("/tmp/it's here.md") // "handoff resume '/tmp/it'\\''s here.md'"
 * ```
 */
export function resumeCommand(source: string): string {
  return `handoff resume ${shellQuote(source)}`;
}

/**
 * The resume command printed and copied for a share link (publish, the share page): the URL is
 * its key, so it is never a command-line word (process list, shell history); `--paste` asks for
 * it at a prompt that does not echo it (docs/cli.md, "Keeping the key off the command line").
 */
export const SHARE_RESUME_COMMAND = "handoff resume --paste";

/** POSIX single quoting. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
