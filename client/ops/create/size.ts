import { MAX_DOCUMENT_BYTES } from "../../../shared/document/size-limits.js";
import { HandoffError } from "../../../shared/errors.js";

/**
 * A handoff `resume` and `validate` would refuse to read is never written: every front end (CLI,
 * MCP `create`, the hook) gets the refusal from the operation, with the limit in it. Undefined
 * when `bytes` fit.
 */
export function oversizedError(bytes: number, what: "body" | "handoff" | "manifest"): HandoffError | undefined {
  if (bytes <= MAX_DOCUMENT_BYTES) return undefined;
  return new HandoffError(
    "too_large",
    `the ${what} is ${bytes} bytes, more than the ${MAX_DOCUMENT_BYTES} bytes (1 MiB) resume and validate read${what === "handoff" ? " once its frontmatter is added" : ""}; nothing was written`,
    {
      hint: "shorten it: a handoff is a pointer-first summary, so point at plans, diffs and files instead of pasting them",
      details: { bytes, limit: MAX_DOCUMENT_BYTES },
    },
  );
}
