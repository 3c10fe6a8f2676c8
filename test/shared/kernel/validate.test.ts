import { describe, expect, it } from "vitest";
import { KERNEL_EVENTS } from "../../../shared/kernel/rules.js";
import { validateKernelText, validateKernelValue } from "../../../shared/kernel/validate.js";
import { EXAMPLE_FILE, exampleManifest, fixtureText } from "./fixtures.js";

type Manifest = Record<string, any>;
const SHA = "760d41d3f23ce0a7c890d807b327f140dff2bcc28fc3ccf99f0cd459ad0e9177";

function withChange(change: (m: Manifest) => void): Manifest {
  const manifest = exampleManifest();
  change(manifest);
  return manifest;
}

describe("the real manifest", () => {
  it("validates, text and value", () => {
    const text = fixtureText(EXAMPLE_FILE);
    const fromText = validateKernelText(text);
    expect(fromText.issues).toEqual([]);
    expect(fromText.ok).toBe(true);
    expect(fromText.manifest?.identity.name).toBe("yaml-skill-unification");
    expect(validateKernelValue(JSON.parse(text))).toMatchObject({ ok: true, issues: [] });
  });

  it("rejects keys the schema does not declare, at every level, as kernel's reference does", () => {
    const result = validateKernelValue(
      withChange((m) => {
        m.x_tool = { v: 1 };
        m.identity.x_extra = "kept";
        m.context.required[0].yaml_path = "a.b";
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.issues.map((i) => i.path)).toEqual(["context.required[0].yaml_path", "identity.x_extra", "x_tool"]);
    expect(result.issues[0]!.message).toMatch(/unknown keys are rejected/);
  });
});

// [what, change, still valid?] — valid edits prove each rule does not over-reach.
const VALID_EDITS: [string, (m: Manifest) => void][] = [
  ["created with an offset", (m) => (m.identity.created = "2026-07-10T23:45:00+02:00")],
  ["created with fraction", (m) => (m.identity.created = "2026-07-10T21:45:00.5Z")],
  ["git_diff selector", (m) => m.context.required.push({ git_diff: "main...HEAD", reason: "r" })],
  ["grep with context 0", (m) => (m.context.optional = [{ path: "a.md", grep: "TODO", context: 0 }])],
  ["bare path selector", (m) => (m.context.required = [{ path: "README.md" }])],
  [
    "advisory without budget",
    (m) => {
      m.context.policy.mode = "advisory";
      delete m.context.budget;
    },
  ],
  ["target equals max", (m) => (m.context.budget.target_tokens = 60000)],
  ["dirty without a tree hash (only a checkpoint pins one)", (m) => (m.provenance.dirty = true)],
  ["created at a real leap second", (m) => (m.identity.created = "2016-12-31T23:59:60Z")],
  ["a name that starts with two dots", (m) => (m.provenance.artifacts[0].path = "..notes/x.md")],
  ["an empty heading counts as absent", (m) => (m.context.required[0].heading = "")],
  ["a short commit", (m) => (m.provenance.commit = "abc")],
  ["sha-256 commit", (m) => (m.provenance.commit = SHA)],
  ["uppercase artifact hash", (m) => (m.provenance.artifacts[0].sha256 = SHA.toUpperCase())],
  ["every event", (m) => (m.workflow.invalidation_rules = KERNEL_EVENTS.map((event) => ({ when: { event }, invalidates: ["recon"] })))],
  ["empty invalidates", (m) => (m.workflow.invalidation_rules[0].invalidates = [])],
  ["argv preflight", (m) => m.runtime.preflight.push({ check: "argv", argv: ["npm", "test"] })],
  [
    "no optional sections",
    (m) => {
      for (const key of ["contract", "runtime", "open_threads", "warnings", "outputs"]) delete m[key];
      delete m.workflow.invalidation_rules;
      delete m.provenance.artifacts;
    },
  ],
];

describe("valid edits of the real manifest", () => {
  it.each(VALID_EDITS)("%s", (_name, change) => {
    expect(validateKernelValue(withChange(change)).issues).toEqual([]);
  });
});

// [what, change, path, message]
const INVALID_EDITS: [string, (m: Manifest) => void, string, RegExp][] = [
  // schema
  ["missing schema", (m) => delete m.schema, "schema", /^is required$/],
  ["other schema", (m) => (m.schema = "kernel.handoff/v2"), "schema", /must be "kernel.handoff\/v1"/],
  ["missing identity.name", (m) => delete m.identity.name, "identity.name", /is required/],
  ["tier 4", (m) => (m.identity.tier = 4), "identity.tier", /at most 3/],
  ["tier 0", (m) => (m.identity.tier = 0), "identity.tier", /at least 1/],
  ["tier 2.5", (m) => (m.identity.tier = 2.5), "identity.tier", /must be an integer/],
  ["dirty as string", (m) => (m.provenance.dirty = "false"), "provenance.dirty", /true or false, not a string/],
  ["commit as number", (m) => (m.provenance.commit = 12397), "provenance.commit", /must be a string/],
  ["success_conditions as string", (m) => (m.objective.success_conditions = "done"), "objective.success_conditions", /must be an array/],
  ["decision without decision", (m) => delete m.contract.decisions_accepted[1].decision, "contract.decisions_accepted[1].decision", /is required/],
  ["phase status", (m) => (m.workflow.phases[0].status = "done"), "workflow.phases[0].status", /one of "inherited", "required", "invalidated"/],
  ["policy mode", (m) => (m.context.policy.mode = "strict"), "context.policy.mode", /one of "sealed", "bounded", "advisory"/],
  ["preflight check", (m) => (m.runtime.preflight[0].check = "shell"), "runtime.preflight[0].check", /one of/],
  ["budget 0", (m) => (m.context.budget.target_tokens = 0), "context.budget.target_tokens", /at least 1/],
  ["missing resume.prompt", (m) => (m.resume = {}), "resume.prompt", /is required/],
  ["skill version float", (m) => (m.runtime.required_skills[0].version = 1.5), "runtime.required_skills[0].version", /integer/],
  // identity.created
  ["created without zone", (m) => (m.identity.created = "2026-07-10T21:45:00"), "identity.created", /time zone/],
  ["created date only", (m) => (m.identity.created = "2026-07-10"), "identity.created", /RFC 3339/],
  ["created month 13", (m) => (m.identity.created = "2026-13-10T21:45:00Z"), "identity.created", /not a calendar date/],
  ["created Feb 30", (m) => (m.identity.created = "2026-02-30T21:45:00Z"), "identity.created", /not a calendar date/],
  // selectors
  ["selector with neither", (m) => (m.context.required[2] = { reason: "r" }), "context.required[2]", /exactly one of path or git_diff/],
  ["selector with both", (m) => (m.context.required[2].git_diff = "a..b"), "context.required[2]", /both path and git_diff/],
  ["two refinements", (m) => (m.context.required[0].lines = "1-2"), "context.required[0]", /combines lines and heading/],
  ["refinement on git_diff", (m) => (m.context.optional = [{ git_diff: "a..b", grep: "x" }]), "context.optional[0]", /grep refines a file and needs path/],
  ["git_diff option", (m) => (m.context.optional = [{ git_diff: "--output=/tmp/x" }]), "context.optional[0].git_diff", /revision or a range/],
  ["git_diff spaces", (m) => (m.context.optional = [{ git_diff: "main HEAD" }]), "context.optional[0].git_diff", /revision or a range/],
  ["git_diff triple range", (m) => (m.context.optional = [{ git_diff: "a..b..c" }]), "context.optional[0].git_diff", /revision or a range/],
  ["git_diff upstream shorthand", (m) => (m.context.optional = [{ git_diff: "@{u}" }]), "context.optional[0].git_diff", /revision or a range/],
  ["created lower-case t", (m) => (m.identity.created = "2026-07-10t21:45:00Z"), "identity.created", /upper-case T and Z/],
  ["created :60 outside a leap second", (m) => (m.identity.created = "2026-07-10T21:45:60Z"), "identity.created", /leap second/],
  ["tier written 2.0", (m) => (m.identity.tier = 2.5), "identity.tier", /integer/],
  ["handoff with dirty_tree_sha256", (m) => (m.provenance.dirty_tree_sha256 = SHA), "provenance.dirty_tree_sha256", /unknown keys are rejected/],
  [
    "invalidates unknown phase (index)",
    (m) => m.workflow.invalidation_rules[0].invalidates.push("deploy"),
    "workflow.invalidation_rules[0].invalidates[2]",
    /"deploy", which is not in workflow.phases/,
  ],
  ["selector path absolute", (m) => (m.context.required[2].path = "/etc/passwd"), "context.required[2].path", /absolute/],
  ["selector path escapes", (m) => (m.context.required[2].path = "docs/../../x"), "context.required[2].path", /climbs out/],
  ["selector path NUL", (m) => (m.context.required[2].path = "a\0b"), "context.required[2].path", /NUL/],
  // budget
  ["target over max", (m) => (m.context.budget.target_tokens = 60001), "context.budget.target_tokens", /must not exceed max_tokens \(60000\)/],
  ["bounded without max", (m) => delete m.context.budget.max_tokens, "context.budget.max_tokens", /required when policy.mode is bounded/],
  [
    "sealed without budget",
    (m) => {
      m.context.policy.mode = "sealed";
      delete m.context.budget;
    },
    "context.budget.max_tokens",
    /required when policy.mode is sealed/,
  ],
  // artifact and preflight paths
  ["artifact path escapes", (m) => (m.provenance.artifacts[1].path = "../other/schema.json"), "provenance.artifacts[1].path", /climbs out/],
  ["artifact path absolute", (m) => (m.provenance.artifacts[0].path = "/home/u/x.md"), "provenance.artifacts[0].path", /absolute/],
  ["preflight path escapes", (m) => (m.runtime.preflight[1].path = "../../etc"), "runtime.preflight[1].path", /climbs out/],
  ["path_exists without path", (m) => delete m.runtime.preflight[1].path, "runtime.preflight[1].path", /required for a path_exists check/],
  // workflow
  [
    "unknown event",
    (m) => (m.workflow.invalidation_rules[1].when.event = "branch_changed"),
    "workflow.invalidation_rules[1].when.event",
    /'branch_changed' not a kernel event; use one of branch_unknown/,
  ],
  // provenance
];

// Handoff's own checks beyond the contract: [what, change, path, message]. Valid, with a warning.
const WARNING_EDITS: [string, (m: Manifest) => void, string, RegExp][] = [
  ["context without grep", (m) => (m.context.required[2].context = 2), "context.required[2].context", /only applies to a grep selector/],
  ["negative context", (m) => (m.context.optional = [{ path: "a", grep: "x", context: -1 }]), "context.optional[0].context", /negative/],
  ["lines reversed", (m) => (m.context.required[2].lines = "30-1"), "context.required[2].lines", /1 <= A <= B/],
  ["lines zero", (m) => (m.context.required[2].lines = "0-30"), "context.required[2].lines", /'A-B'/],
  ["lines words", (m) => (m.context.required[2].lines = "first 30"), "context.required[2].lines", /'A-B'/],
  ["empty heading", (m) => (m.context.required[0].heading = ""), "context.required[0].heading", /is empty/],
  ["empty grep", (m) => (m.context.optional = [{ path: "a", grep: "" }]), "context.optional[0].grep", /is empty/],
  ["selector path drive", (m) => (m.context.required[2].path = "D:\\x"), "context.required[2].path", /drive letter/],
  ["artifact hash short", (m) => (m.provenance.artifacts[0].sha256 = "760d41d3"), "provenance.artifacts[0].sha256", /64 hex digits/],
  ["current_branch without expected", (m) => delete m.runtime.preflight[0].expected, "runtime.preflight[0].expected", /compares against it/],
  ["argv check without argv", (m) => m.runtime.preflight.push({ check: "argv" }), "runtime.preflight[2].argv", /argv check runs it/],
  ["entry phase unknown", (m) => (m.execution.entry_phase = "release"), "execution.entry_phase", /phase 'release'/],
  ["duplicate phase", (m) => m.workflow.phases.push({ name: "recon", status: "required" }), "workflow.phases[6].name", /'recon' is used by an earlier phase/],
  ["empty phase name", (m) => m.workflow.phases.push({ name: "", status: "required" }), "workflow.phases[6].name", /is empty/],
  ["short commit", (m) => (m.provenance.commit = "12397de"), "provenance.commit", /not a full commit sha/],
  ["commit as ref", (m) => (m.provenance.commit = "HEAD"), "provenance.commit", /not a full commit sha/],
];

describe("edits that stay valid with a warning (checks beyond the contract)", () => {
  it.each(WARNING_EDITS)("%s", (_name, change, path, message) => {
    const result = validateKernelValue(withChange(change));
    expect(result.issues).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.warnings).toContainEqual({ path, message: expect.stringMatching(message) });
  });
});

describe("invalid edits of the real manifest", () => {
  it.each(INVALID_EDITS)("%s", (_name, change, path, message) => {
    const result = validateKernelValue(withChange(change));
    expect(result.ok).toBe(false);
    expect(result.manifest).toBeUndefined();
    expect(result.issues).toContainEqual({ path, message: expect.stringMatching(message) });
  });
});

describe("issues", () => {
  it("are all reported in one pass, sorted by path with indexes in numeric order", () => {
    const manifest = withChange((m) => {
      m.context.required = Array.from({ length: 12 }, () => ({ reason: "no target" }));
      m.identity.created = "yesterday";
      m.execution.entry_phase = "nowhere";
      m.provenance.commit = 5;
    });
    const paths = validateKernelValue(manifest).issues.map((issue) => issue.path);
    expect(paths).toEqual([...Array.from({ length: 12 }, (_, i) => `context.required[${i}]`), "identity.created", "provenance.commit"]);
  });

  it("are deterministic", () => {
    const manifest = withChange((m) => {
      m.context.required[0] = { lines: "x", grep: "", context: -2 };
      m.provenance.dirty = true;
    });
    expect(validateKernelValue(manifest)).toEqual(validateKernelValue(structuredClone(manifest)));
  });

  it.each([
    ["a string", "manifest"],
    ["an array", []],
    ["null", null],
  ])("say the document itself is wrong when it is %s", (_name, value) => {
    expect(validateKernelValue(value).issues).toEqual([{ path: "$", message: expect.stringMatching(/^must be an object, not/) }]);
  });
});

describe("validateKernelText", () => {
  it("reports a duplicate key in the real manifest with its path, and validates nothing", () => {
    const text = fixtureText(EXAMPLE_FILE).replace('"dirty": false,', '"dirty": false,\n    "dirty": true,');
    const result = validateKernelText(text);
    expect(result.ok).toBe(false);
    expect(result.issues).toEqual([]);
    expect(result.parseError).toMatchObject({ path: "provenance.dirty", line: 13, column: 5 });
  });

  it("reports invalid JSON with a position", () => {
    expect(validateKernelText('{"schema": "kernel.handoff/v1",}').parseError).toMatchObject({ line: 1, column: 32 });
  });
});
