import { describe, expect, it } from "vitest";
import { validateKernelCheckpoint } from "../../../shared/kernel/checkpoint.js";
import { validateContextReceipt } from "../../../shared/kernel/receipt.js";
import { fullReceipt } from "../../helpers/kernel-corpus.js";

type Doc = Record<string, any>;

/** A complete receipt (the conformance corpus's, where every field is present). */
function receipt(): Doc {
  return fullReceipt();
}

function checkpoint(): Doc {
  return {
    schema: "kernel.checkpoint/v1",
    identity: { name: "x", created: "2026-07-10T21:45:00Z", session: "s" },
    provenance: { branch: "main", commit: "0123456789abcdef0123456789abcdef01234567", dirty: false },
    task: { goal: "ship", handoff_ref: "_meta/handoffs/x-2026-07-10.json" },
    steps_completed: [{ step: "tests written", evidence: "vitest 12/12" }],
    current_outputs: ["a.ts"],
    pending_steps: ["wire the command"],
    resume: { position: "step 2 of 3", next_operation: "edit client/cli/main.ts" },
    context: { policy: { mode: "bounded" }, required: [{ path: "a.ts", lines: "1-10" }], budget: { max_tokens: 5000 } },
  };
}

function edit(base: () => Doc, change: (d: Doc) => void): Doc {
  const doc = base();
  change(doc);
  return doc;
}

describe("validateContextReceipt", () => {
  it("accepts a complete receipt and rejects unknown keys, as kernel's reference does", () => {
    expect(validateContextReceipt(receipt())).toMatchObject({ ok: true, issues: [] });
    expect(validateContextReceipt({ ...receipt(), x_extra: 1 }).issues).toEqual([{ path: "x_extra", message: expect.stringMatching(/unknown keys/) }]);
  });

  it("reads a pre-Kernel-9 receipt (every routing field absent) as migrated, with a warning", () => {
    const old = receipt();
    for (const key of ["requested_model", "observed_model", "requested_effort", "observed_effort", "fallback_authorized", "safety", "builder_identity", "verifier_identity"]) delete old[key];
    const result = validateContextReceipt(old);
    expect(result).toMatchObject({ ok: true, issues: [] });
    expect(result.migrated).toHaveLength(8);
    expect(result.warnings[0]!.message).toMatch(/pre-Kernel-9/);
    delete old.status;
    expect(validateContextReceipt(old).ok).toBe(false);
    const partly = receipt();
    delete partly.safety;
    expect(validateContextReceipt(partly).issues).toContainEqual({ path: "safety", message: "is required" });
  });

  it("warns, and only warns, about a ledger timestamp that is not RFC 3339", () => {
    const result = validateContextReceipt(edit(receipt, (d) => (d.loads_beyond_manifest[0].ts = "yesterday")));
    expect(result).toMatchObject({ ok: true, issues: [] });
    expect(result.warnings).toContainEqual({ path: "loads_beyond_manifest[0].ts", message: expect.stringMatching(/RFC 3339/) });
  });

  it.each([
    [
      "authorized fallback with a reason",
      (d: Doc) => Object.assign(d, { requested_model: "big", observed_model: "small", fallback_authorized: true, fallback_reason: "contract allows smaller model" }),
    ],
    ["protected with distinct identities", (d: Doc) => Object.assign(d, { safety: "protected", builder_identity: "a", verifier_identity: "b" })],
    ["migrated unknown safety", (d: Doc) => Object.assign(d, { safety: "unknown", migrated_fields: ["safety", "observed_model"] })],
    [
      "minimal",
      (d: Doc) => {
        for (const key of ["created", "target_budget_tokens", "maximum_budget_tokens", "selections", "loads_beyond_manifest"]) delete d[key];
      },
    ],
  ])("accepts %s", (_name, change) => {
    expect(validateContextReceipt(edit(receipt, change)).issues).toEqual([]);
  });

  it.each([
    ["missing bundle hash", (d: Doc) => delete d.bundle_sha256, "bundle_sha256", /is required/],
    ["wrong schema", (d: Doc) => (d.schema = "kernel.handoff/v1"), "schema", /kernel.context-receipt\/v1/],
    ["status", (d: Doc) => (d.status = "ok"), "status", /one of "within_budget"/],
    ["safety", (d: Doc) => (d.safety = "high"), "safety", /one of "normal", "protected", "unknown"/],
    ["tokens float", (d: Doc) => (d.total_estimated_tokens = 1.5), "total_estimated_tokens", /integer/],
    ["selection outcome", (d: Doc) => (d.selections[0].outcome = "ok"), "selections[0].outcome", /one of/],
    ["selection without tokens", (d: Doc) => delete d.selections[0].estimated_tokens, "selections[0].estimated_tokens", /is required/],
    ["load without path", (d: Doc) => delete d.loads_beyond_manifest[0].path, "loads_beyond_manifest[0].path", /is required/],
    [
      "fallback without reason",
      (d: Doc) => Object.assign(d, { requested_model: "a", observed_model: "b", fallback_authorized: true }),
      "fallback_reason",
      /required and must not be empty when fallback_authorized/,
    ],
    [
      "fallback with blank reason",
      (d: Doc) => Object.assign(d, { requested_model: "a", observed_model: "b", fallback_authorized: true, fallback_reason: "\u001f " }),
      "fallback_reason",
      /must not be empty/,
    ],
    ["fallback without a mismatch", (d: Doc) => Object.assign(d, { fallback_authorized: true, fallback_reason: "x" }), "fallback_authorized", /no observed model or effort differs/],
    ["mismatch without fallback", (d: Doc) => Object.assign(d, { requested_effort: "high", observed_effort: "low" }), "fallback_authorized", /pre-authorized fallback/],
    ["blank model", (d: Doc) => (d.requested_model = "\u0085"), "requested_model", /non-empty value or 'unavailable'/],
    ["protected with one identity", (d: Doc) => Object.assign(d, { safety: "protected", builder_identity: "a", verifier_identity: "a" }), "verifier_identity", /distinct/],
    ["unknown safety, not migrated", (d: Doc) => (d.safety = "unknown"), "safety", /only in a migrated receipt/],
    ["unknown safety, other fields migrated", (d: Doc) => Object.assign(d, { safety: "unknown", migrated_fields: ["observed_model"] }), "safety", /lists 'safety'/],
    ["unknown key", (d: Doc) => (d.loads_beyond_manifest[0].x = 1), "loads_beyond_manifest[0].x", /unknown keys/],
  ])("rejects %s", (_name, change, path, message) => {
    const result = validateContextReceipt(edit(receipt, change));
    expect(result.ok).toBe(false);
    expect(result.issues).toContainEqual({ path, message: expect.stringMatching(message) });
  });
});

describe("validateKernelCheckpoint", () => {
  it("accepts a checkpoint", () => {
    expect(validateKernelCheckpoint(checkpoint())).toMatchObject({ ok: true, issues: [] });
  });

  it("accepts one without the optional context and outputs", () => {
    const doc = edit(checkpoint, (d) => {
      delete d.context;
      delete d.current_outputs;
    });
    expect(validateKernelCheckpoint(doc).issues).toEqual([]);
  });

  it.each([
    ["a handoff manifest", (d: Doc) => (d.schema = "kernel.handoff/v1"), "schema", /kernel.checkpoint\/v1/],
    ["missing task goal", (d: Doc) => delete d.task.goal, "task.goal", /is required/],
    ["step without evidence", (d: Doc) => delete d.steps_completed[0].evidence, "steps_completed[0].evidence", /is required/],
    ["missing next operation", (d: Doc) => delete d.resume.next_operation, "resume.next_operation", /is required/],
    ["pending steps not strings", (d: Doc) => (d.pending_steps = [1]), "pending_steps[0]", /must be a string/],
    ["created without zone", (d: Doc) => (d.identity.created = "2026-07-10 21:45"), "identity.created", /RFC 3339/],
    ["dirty without tree hash", (d: Doc) => (d.provenance.dirty = true), "provenance.dirty_tree_sha256", /required when dirty/],
    ["selector escaping the repo", (d: Doc) => (d.context.required[0].path = "../x"), "context.required[0].path", /climbs out/],
    ["dirty with an empty tree hash", (d: Doc) => Object.assign(d.provenance, { dirty: true, dirty_tree_sha256: "" }), "provenance.dirty_tree_sha256", /required when dirty/],
    ["an optional selector list (only a handoff has one)", (d: Doc) => (d.context.optional = []), "context.optional", /unknown keys/],
    ["bounded without max", (d: Doc) => delete d.context.budget, "context.budget.max_tokens", /required when policy.mode is bounded/],
  ])("rejects %s", (_name, change, path, message) => {
    const result = validateKernelCheckpoint(edit(checkpoint, change));
    expect(result.ok).toBe(false);
    expect(result.issues).toContainEqual({ path, message: expect.stringMatching(message) });
  });
});
