import * as z from "zod/mini";
import { isIsoUtc } from "../time/timestamps.js";
import { CE_CONTRACT } from "./contract.js";

/** POSIX absolute, or a Windows drive path: the capture machine may be either. */
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/])/;
const HEX_SHA = /^[0-9a-f]{7,64}$/;

/** "is required" when the key is missing, the expectation otherwise. */
const expect = (expected: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : expected);

const text = (what: string) => z.string({ error: expect(`must be a string (${what})`) }).check(z.refine((v) => v.trim().length > 0, { message: "must not be empty" }));

/**
 * The ce-handoff/v1 frontmatter contract (../shared/spec/ce-handoff-v1.md), as a zod schema.
 *
 * Reading is lenient about keys we do not know (other tools may write them; interop beats purity),
 * strict about the ones we do. Writing goes through `serializeCeFrontmatter`, which only ever
 * emits the keys below, so we never write lifecycle fields.
 *
 * Built on first use, not at import: validating a kernel manifest, or reading a head that
 * create wrote, never needs it, and a bundle loads zod only when a schema is first built.
 *
 * @example
 * ```ts
 * ceFrontmatterSchema().safeParse({
 *   artifact_contract: "ce-handoff/v1", created_at: "2026-07-10T09:30:00Z",
 *   title: "Auth refactor", summary: "Token refresh half done", keywords: ["auth"], cwd: "/src/app",
 * }).success // true
 * ```
 */
export function ceFrontmatterSchema(): ReturnType<typeof buildSchema> {
  schema ??= buildSchema();
  return schema;
}

let schema: ReturnType<typeof buildSchema> | undefined;

const buildSchema = () =>
  z.looseObject({
    artifact_contract: z.literal(CE_CONTRACT, { error: expect(`must be "${CE_CONTRACT}"`) }),
    created_at: z.string({ error: expect("must be ISO-8601 UTC") }).check(z.refine(isIsoUtc, { message: "must be ISO-8601 UTC" })),
    title: text("a short descriptive title"),
    summary: text("one sentence"),
    keywords: z.array(z.string({ error: "must be a string" }), { error: expect("must be a list of strings") }),
    cwd: z.string({ error: expect("must be an absolute path") }).check(z.regex(ABSOLUTE, { message: "must be an absolute path" })),
    resume_focus: z.optional(text("the next session's focus")),
    repository: z.optional(text("a repository identifier")),
    repo_root_sha: z.optional(z.string({ error: "must be a hex commit id" }).check(z.regex(HEX_SHA, { message: "must be a hex commit id" }))),
    branch: z.optional(text("a branch name")),
    head: z.optional(z.string({ error: "must be a hex commit id" }).check(z.regex(HEX_SHA, { message: "must be a hex commit id" }))),
    worktree_path: z.optional(z.string({ error: "must be an absolute path" }).check(z.regex(ABSOLUTE, { message: "must be an absolute path" }))),
  });

export type CeFrontmatter = z.infer<ReturnType<typeof buildSchema>>;
