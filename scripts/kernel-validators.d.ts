// Types for scripts/kernel-validators.js (plain JavaScript, run by `npm run kernel:schemas`).

export const VALIDATORS_FILE: string;
/** The JSON Schema of each kernel document, by its validator's exported name. */
export function kernelJsonSchemas(modules: {
  kernelSchemas: () => { kernelHandoffSchema: unknown };
  kernelCheckpointSchema: () => unknown;
  contextReceiptSchema: () => unknown;
  toJSONSchema: (schema: never, options: { io: "input" }) => unknown;
}): Record<string, Record<string, unknown>>;
/** The text of shared/kernel/schema-validators.ts: ajv's standalone code for these schemas. */
export function validatorsText(schemas: Record<string, Record<string, unknown>>): Promise<string>;
