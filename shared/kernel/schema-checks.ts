import type { SchemaCheck } from "./issues.js";
import type { JsonPathSegment } from "./json-path.js";
import type { KernelCheckpoint } from "./checkpoint-schema.js";
import type { ContextReceipt } from "./receipt-schema.js";
import type { KernelHandoff } from "./schema.js";
import { type FoundIssue, UNKNOWN_KEY, mustBeAtLeast, mustBeAtMost, mustBeType, mustBeValue } from "./schema-issues.js";
import { validateContextReceipt, validateKernelCheckpoint, validateKernelHandoff } from "./schema-validators.js";

/**
 * The schema passes of the kernel documents: ajv's validators, generated from the zod schemas
 * (schema-validators.ts, `npm run kernel:schemas`), with their errors in the words zod's issues
 * get (schema-issues.ts), so validating loads no zod. ajv checks the document in place: the value
 * a pass returns is the document itself, typed once no issue was found.
 */

/** What ajv's standalone code reports (ajv's ErrorObject, the fields read here). */
interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}
type AjvValidate = ((value: unknown) => boolean) & { errors?: AjvError[] | null };

/** kernel.handoff/v1's schema pass. */
export const checkKernelHandoff: SchemaCheck<KernelHandoff> = checkWith(validateKernelHandoff);
/** kernel.checkpoint/v1's schema pass. */
export const checkKernelCheckpoint: SchemaCheck<KernelCheckpoint> = checkWith(validateKernelCheckpoint);
/** kernel.context-receipt/v1's schema pass. */
export const checkContextReceipt: SchemaCheck<ContextReceipt> = checkWith(validateContextReceipt);

function checkWith<T>(validate: AjvValidate): SchemaCheck<T> {
  return (value, issues) => {
    if (!validate(value)) for (const error of validate.errors ?? []) issues.push(issueOf(value, error));
    return value as T;
  };
}

/** One ajv error as the issue zod reports there; a keyword the kernel schemas do not use is a bug here, said loudly. */
function issueOf(document: unknown, error: AjvError): FoundIssue {
  const { segments, value } = locate(document, error.instancePath);
  const { params } = error;
  switch (error.keyword) {
    case "required":
      return { segments: [...segments, String(params.missingProperty)], message: "is required" };
    case "additionalProperties":
      return { segments: [...segments, String(params.additionalProperty)], message: UNKNOWN_KEY };
    case "type":
      // An integer's type (JSON Schema's) is zod's number with an integer check: a number that is
      // not whole is that check's issue, anything else is not a number.
      if (params.type === "integer") return { segments, message: typeof value === "number" && Number.isFinite(value) ? "must be an integer" : mustBeType("number", value) };
      return { segments, message: mustBeType(String(params.type), value) };
    case "enum":
      return { segments, message: mustBeValue(params.allowedValues as unknown[], value) };
    case "const":
      return { segments, message: mustBeValue([params.allowedValue], value) };
    case "minimum":
      return { segments, message: mustBeAtLeast(params.limit) };
    case "maximum":
      return { segments, message: mustBeAtMost(params.limit) };
    default:
      throw new Error(`schema-checks.ts does not word ajv's "${error.keyword}" error: a kernel schema uses a construct it does not know`);
  }
}

/**
 * The segments of a JSON Pointer (RFC 6901) into `document`, and the value there: an array's
 * index is a number, as zod's paths have it.
 */
function locate(document: unknown, pointer: string): { segments: JsonPathSegment[]; value: unknown } {
  const segments: JsonPathSegment[] = [];
  let value = document;
  if (pointer === "") return { segments, value };
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const segment = Array.isArray(value) ? Number(key) : key;
    segments.push(segment);
    value = (value as Record<JsonPathSegment, unknown> | undefined)?.[segment];
  }
  return { segments, value };
}
