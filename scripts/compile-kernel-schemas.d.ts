// Types for scripts/compile-kernel-schemas.js (plain JavaScript, run by `npm run kernel:schemas`).

export const COMPILED_FILE: string;
/** A document to compile: the exported function's name, its zod schema and its TypeScript type. */
export interface KernelValidatorRoot {
  name: string;
  base: string;
  schema: unknown;
  type: string;
  from: string;
  source: string;
}
export function kernelValidatorRoots(modules: {
  kernelSchemas: () => { kernelHandoffSchema: unknown };
  kernelCheckpointSchema: () => unknown;
  contextReceiptSchema: () => unknown;
}): KernelValidatorRoot[];
/** The text of shared/kernel/compiled-schemas.ts for these roots; throws on a zod construct it does not know. */
export function compileKernelSchemas(roots: readonly KernelValidatorRoot[]): string;
