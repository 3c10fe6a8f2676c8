/** The one error shape every non-2xx answer of the worker has (see shared/errors.ts). */
import { z } from "zod";
import { ERROR_REASONS } from "../errors.js";

export const errorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(ERROR_REASONS),
    message: z.string(),
    hint: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
