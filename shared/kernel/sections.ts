// The manifest's identity and top-level layout, apart from the zod schema: the share page's
// reader renders manifests with render.ts and must not pull the classic zod build in with it.

export const KERNEL_HANDOFF_SCHEMA_ID = "kernel.handoff/v1";
export const KERNEL_CHECKPOINT_SCHEMA_ID = "kernel.checkpoint/v1";

/** The top-level sections, in the schema's order. */
export const KERNEL_SECTIONS = ["schema", "identity", "provenance", "objective", "contract", "workflow", "runtime", "context", "execution", "open_threads", "warnings", "outputs", "resume"] as const;
