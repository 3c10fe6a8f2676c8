import { mayAccess } from "../ops/guard/policy.js";

/**
 * What `--with-changes` (CLI) and `with_changes` (MCP) pass to the capture: the guard's own
 * decision (ops/guard/policy.ts) on sending each path, so under a sealed manifest a forbidden file
 * is left out of the bundle and named with the manifest that forbids it, never read or sent. The
 * same decision the hook and the MCP gate make, asked per file.
 */
export function captureExclusion(where: { cwd: string; home: string | undefined }): (path: string) => string | undefined {
  return (path) => {
    const outcome = mayAccess(path, "send", where);
    if (outcome.allowed) return undefined;
    return outcome.manifest
      ? `forbidden by the active manifest ${outcome.manifest}: left out, never read or sent`
      : `the guard could not decide (${outcome.message.split("\n")[0]}): left out, never read or sent`;
  };
}
