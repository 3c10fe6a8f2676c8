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

/** POSIX single quoting. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
