/**
 * TEMPORARY STUB on branch ce: the kernel engineer's real validator replaces this file when the
 * branches are merged. `handoff validate` imports it for `.json` files and `{`-documents.
 *
 * @example
 * ```ts
 * validateKernelText("{}") // { ok: false, issues: [{ path: "", message: "kernel validation not wired" }] }
 * ```
 */
export function validateKernelText(_text: string): { ok: boolean; issues: { path: string; message: string }[]; manifest?: unknown } {
  return { ok: false, issues: [{ path: "", message: "kernel validation not wired" }] };
}
