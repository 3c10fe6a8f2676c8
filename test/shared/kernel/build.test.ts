import { describe, expect, it } from "vitest";
import { isHandoffError } from "../../../shared/errors.js";
import { type CapturedState, buildKernelManifest, kernelManifestFileName } from "../../../shared/kernel/build.js";
import { validateKernelValue } from "../../../shared/kernel/validate.js";
import { exampleManifest } from "./fixtures.js";

const COMMIT = "0123456789abcdef0123456789abcdef01234567";
const SHA_A = "a".repeat(64);
const SHA_B = "b".repeat(64);
const SHA_T = "c".repeat(64);

const captured: CapturedState = {
  name: "fix login",
  created: "2026-07-10T21:45:00.000Z",
  branch: "feat/login",
  commit: COMMIT,
  dirty: false,
};

/** The smallest partial an agent might write. */
function partial(): Record<string, any> {
  return {
    objective: { goal: "fix the login redirect", success_conditions: ["login test green"] },
    workflow: { phases: [{ name: "fix", status: "required" }] },
    execution: { entry_phase: "fix" },
  };
}

describe("kernelManifestFileName", () => {
  it.each([
    ["yaml-skill-unification", "2026-07-10T21:45:00Z", "yaml-skill-unification-2026-07-10.json"],
    ["Fix Login: redirect loop!", "2026-01-02T00:00:00Z", "fix-login-redirect-loop-2026-01-02.json"],
    ["Café déjà vu", "2026-01-02T00:00:00Z", "cafe-deja-vu-2026-01-02.json"],
    ["../../etc/passwd", "2026-01-02T00:00:00Z", "etc-passwd-2026-01-02.json"],
    ["日本語", "2026-01-02T00:00:00Z", "handoff-2026-01-02.json"],
    ["", "2026-01-02T00:00:00Z", "handoff-2026-01-02.json"],
    ["x".repeat(200), "2026-01-02T00:00:00Z", `${"x".repeat(80)}-2026-01-02.json`],
    ["late", "2026-01-02T23:30:00-05:00", "late-2026-01-03.json"],
  ])("%j on %s -> %s", (name, date, expected) => {
    expect(kernelManifestFileName(name, new Date(date))).toBe(expected);
  });

  it("refuses an invalid date", () => {
    expect(() => kernelManifestFileName("x", new Date("nope"))).toThrow(/valid date/);
  });
});

describe("buildKernelManifest", () => {
  it("fills schema, identity, provenance, default policy and resume prompt; the result validates", () => {
    const manifest = buildKernelManifest(partial(), captured) as Record<string, any>;
    expect(manifest).toEqual({
      schema: "kernel.handoff/v1",
      identity: { name: "fix login", created: captured.created },
      provenance: { branch: "feat/login", commit: COMMIT, dirty: false },
      objective: partial().objective,
      workflow: partial().workflow,
      context: { policy: { mode: "advisory" } },
      execution: { entry_phase: "fix" },
      resume: { prompt: "handoff resume '_meta/handoffs/fix-login-2026-07-10.json'" },
    });
    expect(Object.keys(manifest)).toEqual(["schema", "identity", "provenance", "objective", "workflow", "context", "execution", "resume"]);
    expect(validateKernelValue(manifest).issues).toEqual([]);
  });

  it("lets captured state win for branch, commit, dirty and created", () => {
    const given = partial();
    given.identity = { name: "agent name", created: "2020-01-01T00:00:00Z", session: "s1", tier: 2 };
    given.provenance = { branch: "old", commit: "f".repeat(40), dirty: true, dirty_tree_sha256: SHA_T, retrospective_refs: ["r.json"] };
    const manifest = buildKernelManifest(given, captured) as Record<string, any>;
    expect(manifest.identity).toEqual({ name: "agent name", created: captured.created, session: "s1", tier: 2 });
    expect(manifest.provenance).toEqual({ branch: "feat/login", commit: COMMIT, dirty: false, retrospective_refs: ["r.json"] });
    expect(manifest.resume.prompt).toBe("handoff resume '_meta/handoffs/agent-name-2026-07-10.json'");
  });

  it("records dirty without a tree hash: a handoff's provenance has none (only a checkpoint's does)", () => {
    const given = partial();
    given.provenance = { dirty_tree_sha256: SHA_T };
    const manifest = buildKernelManifest(given, { ...captured, dirty: true }) as Record<string, any>;
    expect(manifest.provenance).toEqual({ branch: captured.branch, commit: captured.commit, dirty: true });
    expect(validateKernelValue(manifest).ok).toBe(true);
  });

  it("merges pinned artifacts with the partial's by path; the measured hash wins", () => {
    const given = partial();
    given.provenance = {
      artifacts: [
        { path: "a.md", sha256: SHA_B, purpose: "agent's purpose" },
        { path: "keep.md", sha256: SHA_B },
      ],
    };
    const manifest = buildKernelManifest(given, {
      ...captured,
      artifacts: [
        { path: "a.md", sha256: SHA_A },
        { path: "new.md", sha256: SHA_A, purpose: "pinned" },
      ],
    }) as Record<string, any>;
    expect(manifest.provenance.artifacts).toEqual([
      { path: "a.md", sha256: SHA_A, purpose: "agent's purpose" },
      { path: "keep.md", sha256: SHA_B },
      { path: "new.md", sha256: SHA_A, purpose: "pinned" },
    ]);
  });

  it("keeps what the agent wrote: policy, prompt, extra sections and unknown keys", () => {
    const given = partial();
    given.context = { policy: { mode: "sealed" }, budget: { max_tokens: 10 }, forbidden: ["secrets/**"] };
    given.resume = { prompt: "continue" };
    given.x_tool = { kept: true };
    const manifest = buildKernelManifest(given, captured) as Record<string, any>;
    expect(manifest.context).toEqual(given.context);
    expect(manifest.resume).toEqual({ prompt: "continue" });
    expect(manifest.x_tool).toEqual({ kept: true });
    expect(Object.keys(manifest).at(-1)).toBe("x_tool");
  });

  it("uses the given manifest path in the default prompt, quoted for a shell", () => {
    const manifest = buildKernelManifest(partial(), captured, { manifestPath: "notes/it's.json" }) as Record<string, any>;
    expect(manifest.resume.prompt).toBe("handoff resume 'notes/it'\\''s.json'");
  });

  it("leaves a wrong schema id for validation to report", () => {
    const manifest = buildKernelManifest({ ...partial(), schema: "kernel.checkpoint/v1" }, captured);
    expect(validateKernelValue(manifest).issues).toContainEqual({ path: "schema", message: 'must be "kernel.handoff/v1"' });
  });

  it("rebuilding the real manifest with its own captured state validates", () => {
    const real = exampleManifest();
    const manifest = buildKernelManifest(real, {
      name: real.identity.name,
      created: real.identity.created,
      branch: real.provenance.branch,
      commit: real.provenance.commit,
      dirty: false,
    });
    expect(manifest).toEqual(real);
    expect(validateKernelValue(manifest).ok).toBe(true);
  });

  it("does not let a __proto__ key change the result's prototype", () => {
    const given = JSON.parse('{"__proto__": {"polluted": true}}');
    const manifest = buildKernelManifest(given, captured) as Record<string, unknown>;
    expect(Object.getPrototypeOf(manifest)).toBe(Object.prototype);
    expect((manifest as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["a string", "goal"],
    ["an array", []],
    ["a number", 3],
  ])("refuses %s as the partial", (_name, value) => {
    let error: unknown;
    try {
      buildKernelManifest(value, captured);
    } catch (caught) {
      error = caught;
    }
    expect(isHandoffError(error) && error.reason).toBe("invalid_document");
  });

  it("treats a missing partial as empty, so validation names every missing section", () => {
    const issues = validateKernelValue(buildKernelManifest(undefined, captured)).issues.map((i) => i.path);
    expect(issues).toEqual(["execution", "objective", "workflow"]);
  });
});
