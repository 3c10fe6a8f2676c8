/** The one error shape every non-2xx answer of the worker has (see shared/errors.ts). */
import * as z from "zod/mini";
import { ERROR_REASONS } from "../errors.js";

export const errorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(ERROR_REASONS),
    message: z.string(),
    hint: z.optional(z.string()),
    details: z.optional(z.record(z.string(), z.unknown())),
  }),
});
