import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The conformance corpus: kernel documents built at test time from the real manifest, a maximal
 * manifest, a checkpoint and a receipt, by systematic mutation of every field the schemas declare
 * and every rule kernel's reference code makes. Each case is text (so literal forms such as
 * `2.0`, a BOM or a duplicate key can be tested) and may carry the documented exception it
 * exercises (docs/conformance.md): there the verdicts must differ, in the documented direction.
 */

export type Exception = "dotdot-name" | "leap-second" | "year-zero" | "offset-minutes";

export interface CorpusCase {
  name: string;
  text: string;
  exception?: Exception;
}

// The spec's schemas and real manifest, as this repository keeps them (byte-identical copies).
const SPEC = new URL("../fixtures/kernel/", import.meta.url);
const read = (name: string) => readFileSync(fileURLToPath(new URL(name, SPEC)), "utf8");
export const REAL_MANIFEST_TEXT = read("example.yaml-skill-unification-2026-07-10.json");
const SCHEMAS: Record<string, JsonSchema> = {
  "kernel.handoff/v1": JSON.parse(read("kernel.handoff.v1.schema.json")) as JsonSchema,
  "kernel.checkpoint/v1": JSON.parse(read("kernel.checkpoint.v1.schema.json")) as JsonSchema,
  "kernel.context-receipt/v1": JSON.parse(read("kernel.context-receipt.v1.schema.json")) as JsonSchema,
};

interface JsonSchema {
  type?: string;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: string[];
  minimum?: number;
  maximum?: number;
}

type Doc = Record<string, any>;
const SHA = "a".repeat(64);
const COMMIT = "12397dedd6b82305f0f0703c15cc2b284c5fc49c";

/** A manifest with every field of kernel.handoff/v1 present, each value unique (render tests find them). */
export function fullManifest(): Doc {
  return {
    schema: "kernel.handoff/v1",
    identity: { name: "full-name", created: "2026-07-10T21:45:00Z", session: "full-session", tier: 2 },
    provenance: {
      branch: "full-branch",
      commit: COMMIT,
      dirty: false,
      artifacts: [{ path: "docs/full-artifact.md", sha256: SHA, purpose: "full-purpose" }],
      retrospective_refs: ["_meta/retro/full-retro.json"],
    },
    objective: { goal: "full-goal", success_conditions: ["full-success"], non_goals: ["full-non-goal"] },
    contract: {
      ref: "_meta/contracts/full-contract.md",
      invariants: ["full-invariant"],
      assumptions: ["full-assumption"],
      decisions_accepted: [{ decision: "full-decision", rationale: "full-rationale" }],
      alternatives_rejected: [{ alternative: "full-alternative", reason: "full-reason" }],
    },
    workflow: {
      phases: [
        { name: "full-phase-a", status: "inherited", evidence: "full-evidence" },
        { name: "full-phase-b", status: "required" },
      ],
      invalidation_rules: [{ when: { event: "artifact_hash_mismatch", path_glob: "docs/full-glob*" }, invalidates: ["full-phase-a"] }],
    },
    runtime: {
      required_skills: [{ name: "full-skill", version: 7, sha256: "full-skill-sha" }],
      optional_skills: ["full-optional-skill"],
      preflight: [
        { check: "current_branch", expected: "full-expected" },
        { check: "path_exists", path: "full-preflight-path" },
        { check: "argv", argv: ["git", "status", "--short"] },
      ],
    },
    context: {
      policy: { mode: "bounded" },
      required: [
        { path: "docs/full-lines.md", lines: "1-9", reason: "full-reason-lines" },
        { path: "docs/full-heading.md", heading: "## full-heading" },
        { path: "docs/full-grep.md", grep: "full-grep", context: 5 },
      ],
      optional: [{ git_diff: "full-rev..HEAD", reason: "full-reason-diff" }],
      forbidden: ["full-forbidden/**"],
      budget: { target_tokens: 1000, max_tokens: 4000 },
    },
    execution: { entry_phase: "full-phase-b", entrypoint: "full-entrypoint", stop_conditions: ["full-stop"], checkpoints: ["full-checkpoint"] },
    open_threads: ["full-thread"],
    warnings: ["full-warning"],
    outputs: { required: ["full-output"], completion: "full-completion" },
    resume: { prompt: "full-prompt" },
  };
}

export function fullCheckpoint(): Doc {
  return {
    schema: "kernel.checkpoint/v1",
    identity: { name: "cp", created: "2026-07-11T08:00:00+02:00", session: "s" },
    provenance: { branch: "main", commit: "abc", dirty: true, dirty_tree_sha256: SHA },
    task: { goal: "g", handoff_ref: "_meta/handoffs/x.json", contract_ref: "_meta/contracts/x.md" },
    steps_completed: [{ step: "s1", evidence: "e1" }],
    current_outputs: ["out.md"],
    pending_steps: ["s2"],
    resume: { position: "after s1", entrypoint: "npm test", next_operation: "s2" },
    context: { policy: { mode: "sealed" }, required: [{ path: "a.md", heading: "## A" }], forbidden: ["secret/**"], budget: { target_tokens: 10, max_tokens: 20 } },
  };
}

export function fullReceipt(): Doc {
  return {
    schema: "kernel.context-receipt/v1",
    manifest: "_meta/handoffs/x.json",
    manifest_sha256: SHA,
    bundle_sha256: SHA,
    requested_model: "unavailable",
    observed_model: "unavailable",
    requested_effort: "unavailable",
    observed_effort: "unavailable",
    fallback_authorized: false,
    safety: "normal",
    builder_identity: "unavailable",
    verifier_identity: "unavailable",
    created: "2026-07-11T08:00:00Z",
    manifest_tokens: 10,
    project_instructions_tokens: 0,
    always_skills_tokens: 0,
    workflow_skills_tokens: 0,
    domain_skills_tokens: 0,
    selected_artifacts_tokens: 5,
    agentdb_tokens: 0,
    total_estimated_tokens: 15,
    target_budget_tokens: 0,
    maximum_budget_tokens: 0,
    status: "within_budget",
    estimation_method: "chars/4",
    selections: [{ selector: "[required] a.md", resolved: true, outcome: "resolved", resolved_sha256: SHA, estimated_tokens: 5, note: "n" }],
    loads_beyond_manifest: [{ path: "b.md", reason: "r", estimated_tokens: 3, ts: "2026-07-11T08:00:00Z" }],
  };
}

const clone = (doc: Doc): Doc => structuredClone(doc);

/** Sets (or deletes, with `DELETE`) the value at a path of keys and indexes. */
const DELETE = Symbol("delete");
function setAt(doc: Doc, path: (string | number)[], value: unknown): Doc {
  const out = clone(doc);
  let node: any = out;
  for (const key of path.slice(0, -1)) node = node[key];
  const last = path[path.length - 1]!;
  if (value === DELETE) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else node[last] = value;
  return out;
}

// A number literal that JSON.stringify cannot write (2.0, 1e3, 10^20): a marker string, swapped after.
const raw = (literal: string) => `\u0000raw:${literal}\u0000`;
function text(doc: unknown): string {
  return JSON.stringify(doc, null, 2).replace(/"\\u0000raw:([^\\]+)\\u0000"/g, "$1");
}

const WRONG_TYPES: Record<string, unknown[]> = {
  string: [5, null, true, [], {}],
  integer: ["1", raw("1.0"), raw("2.5"), raw("1e1"), true, null],
  boolean: ["false", 0, null],
  array: [{}, "x", null],
  object: [[], "x", null],
};

/** Every schema-declared field of `doc` (present in it): deleted, mistyped, out of enum or range, and one unknown key per object. */
function schemaMutations(label: string, doc: Doc, schema: JsonSchema): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const walk = (node: unknown, s: JsonSchema, path: (string | number)[]) => {
    const where = path.length === 0 ? "$" : path.join(".");
    for (const wrong of path.length === 0 ? [] : (WRONG_TYPES[s.type ?? ""] ?? [])) {
      cases.push({ name: `${label} ${where} = ${JSON.stringify(wrong)}`, text: text(setAt(doc, path, wrong)) });
    }
    if (s.enum) {
      cases.push({ name: `${label} ${where} out of enum`, text: text(setAt(doc, path, "not-in-enum")) });
      for (const value of s.enum) cases.push({ name: `${label} ${where} = ${value}`, text: text(setAt(doc, path, value)) });
    }
    if (s.type === "integer") {
      for (const value of [s.minimum, s.maximum].filter((v): v is number => v !== undefined).flatMap((v) => [v - 1, v, v + 1])) {
        cases.push({ name: `${label} ${where} = ${value}`, text: text(setAt(doc, path, value)) });
      }
      cases.push({ name: `${label} ${where} = 10^20`, text: text(setAt(doc, path, raw("100000000000000000000"))) });
      cases.push({ name: `${label} ${where} = -0`, text: text(setAt(doc, path, raw("-0"))) });
    }
    if (s.type === "object" && node !== null && typeof node === "object" && !Array.isArray(node)) {
      cases.push({ name: `${label} ${where} + unknown key`, text: text(setAt(doc, [...path, "x_unknown"], "x")) });
      for (const [key, sub] of Object.entries(s.properties ?? {})) {
        if (!(key in (node as Doc))) continue;
        cases.push({ name: `${label} ${where}.${key} deleted`, text: text(setAt(doc, [...path, key], DELETE)) });
        walk((node as Doc)[key], sub, [...path, key]);
      }
    }
    if (s.type === "array" && Array.isArray(node)) {
      cases.push({ name: `${label} ${where} = []`, text: text(setAt(doc, path, [])) });
      if (node.length > 0 && s.items) walk(node[0], s.items, [...path, 0]);
    }
  };
  walk(doc, schema, []);
  return cases;
}

const CREATED: [string, Exception?][] = [
  ["2026-07-10T21:45:00Z"],
  ["2026-07-10T21:45:00.123456789Z"],
  ["2026-07-10T23:45:00+02:00"],
  ["2026-07-10T16:15:00-05:30"],
  ["2026-07-10t21:45:00Z"],
  ["2026-07-10T21:45:00z"],
  ["2026-07-10 21:45:00Z"],
  ["2026-07-10T21:45:00"],
  ["2026-07-10"],
  ["2026-07-10T21:45Z"],
  ["2026-7-10T21:45:00Z"],
  ["2026-07-10T21:45:00+0200"],
  ["2026-07-10T21:45:00.Z"],
  [" 2026-07-10T21:45:00Z"],
  ["2026-07-10T21:45:00Z "],
  ["2026-13-01T00:00:00Z"],
  ["2026-00-01T00:00:00Z"],
  ["2026-02-30T00:00:00Z"],
  ["2025-02-29T00:00:00Z"],
  ["2024-02-29T00:00:00Z"],
  ["1900-02-29T00:00:00Z"],
  ["2000-02-29T00:00:00Z"],
  ["2026-04-31T00:00:00Z"],
  ["2026-07-00T00:00:00Z"],
  ["2026-07-10T24:00:00Z"],
  ["2026-07-10T23:60:00Z"],
  ["2026-07-10T23:59:61Z"],
  ["2026-07-10T23:59:60Z"],
  ["2016-12-31T23:59:60Z", "leap-second"],
  ["2017-01-01T00:59:60+01:00", "leap-second"],
  ["2015-06-30T23:59:60Z", "leap-second"],
  ["2016-12-31T22:59:60Z"],
  ["0000-01-01T00:00:00Z", "year-zero"],
  ["0001-01-01T00:00:00Z"],
  ["9999-12-31T23:59:59Z"],
  ["2026-07-10T21:45:00+01:60", "offset-minutes"],
  ["2026-07-10T21:45:00+00:99", "offset-minutes"],
  ["2026-07-10T21:45:00+23:59"],
  ["2026-07-10T21:45:00+24:00"],
  ["2026-07-10T21:45:00-23:99"],
  ["2026-07-10T21:45:00-00:00"],
  ["２０２６-07-10T21:45:00Z"],
  ["٢٠٢٦-07-10T21:45:00Z"],
  ["2026-07-10T21:45:00ZZ"],
  ["2026-07-10T21:45:00\n"],
  [""],
];

const PATHS: [string, Exception?][] = [
  ["docs/a.md"],
  ["a"],
  ["."],
  ["./a"],
  ["a/.."],
  ["a/../b"],
  ["a//b"],
  ["a/./b"],
  ["../a"],
  [".."],
  ["a/../.."],
  ["a/../../b"],
  ["./../a"],
  ["..foo", "dotdot-name"],
  ["...", "dotdot-name"],
  ["..foo/bar", "dotdot-name"],
  ["a/../..foo", "dotdot-name"],
  ["...a/b", "dotdot-name"],
  ["/etc/passwd"],
  ["//x"],
  [""],
  ["C:x"],
  ["C:\\x"],
  ["\\x"],
  ["a\\..\\..\\b"],
  ["a\u0001b"],
  ["a\u007fb"],
  ["a\u0000b"],
  ["a b"],
  ["ü/ß.md"],
  ["a/"],
  [".hidden"],
];

const GIT_DIFFS = [
  "main",
  "main..HEAD",
  "main...HEAD~2",
  "HEAD@{1}",
  "@{u}",
  "@",
  "HEAD^",
  "a..b..c",
  "a....b",
  "a...",
  "..b",
  "-p",
  "--output=/tmp/x",
  "main..-p",
  "v1.0+build",
  "feature/x..main",
  "a b",
  "a\nb",
  "",
  "HEAD~3..HEAD",
  "a.b",
  ".a",
  "a..",
  "x{y}",
  "é",
  "a:b",
  "HEAD~1...",
  "0abc..1def",
];

function ruleMutations(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const full = fullManifest();
  const add = (name: string, doc: Doc, exception?: Exception) => cases.push({ name, text: text(doc), ...(exception ? { exception } : {}) });

  for (const [created, exception] of CREATED) add(`created ${JSON.stringify(created)}`, setAt(full, ["identity", "created"], created), exception);
  for (const [created, exception] of CREATED.slice(0, 12)) add(`checkpoint created ${JSON.stringify(created)}`, setAt(fullCheckpoint(), ["identity", "created"], created), exception);

  const pathFields: [string, (string | number)[]][] = [
    ["artifact", ["provenance", "artifacts", 0, "path"]],
    ["required selector", ["context", "required", 0, "path"]],
    ["preflight path_exists", ["runtime", "preflight", 1, "path"]],
    ["preflight current_branch", ["runtime", "preflight", 0, "path"]],
  ];
  // The reference never checks a current_branch check's path: no exception can arise there.
  for (const [label, at] of pathFields)
    for (const [path, exception] of PATHS) add(`${label} path ${JSON.stringify(path)}`, setAt(full, at, path), label === "preflight current_branch" ? undefined : exception);
  add("optional selector path ..", setAt(full, ["context", "optional", 0], { path: "../x" }));
  add("checkpoint selector path ..foo", setAt(fullCheckpoint(), ["context", "required", 0], { path: "..foo" }), "dotdot-name");
  add("checkpoint selector path ../x", setAt(fullCheckpoint(), ["context", "required", 0], { path: "../x" }));

  for (const diff of GIT_DIFFS) add(`git_diff ${JSON.stringify(diff)}`, setAt(full, ["context", "optional", 0], { git_diff: diff }));

  // Every combination of sources and refinements, non-empty, then each one empty.
  const keys = ["path", "git_diff", "lines", "heading", "grep"] as const;
  const values: Record<string, string> = { path: "docs/a.md", git_diff: "main..HEAD", lines: "1-2", heading: "## A", grep: "x" };
  for (let mask = 0; mask < 32; mask++) {
    const selector: Doc = {};
    keys.forEach((key, i) => {
      if (mask & (1 << i)) selector[key] = values[key];
    });
    add(`selector {${Object.keys(selector).join(",")}}`, setAt(full, ["context", "required", 0], selector));
  }
  for (const key of keys) add(`selector ${key} ""`, setAt(full, ["context", "required", 0], { path: "docs/a.md", [key]: "" }));
  for (const extra of [{ lines: "9-1" }, { lines: "a-b" }, { lines: "0-3" }, { context: 2 }, { grep: "x", context: -1 }, { grep: "(", context: 0 }, { heading: " " }, { yaml_path: "a" }]) {
    add(`selector path + ${JSON.stringify(extra)}`, setAt(full, ["context", "required", 0], { path: "docs/a.md", ...extra }));
  }

  for (const mode of ["advisory", "bounded", "sealed"]) {
    const budgets: [string, unknown][] = [
      ["none", DELETE],
      ["{}", {}],
      ["target only", { target_tokens: 5 }],
      ["max only", { max_tokens: 5 }],
      ["target<max", { target_tokens: 4, max_tokens: 5 }],
      ["target=max", { target_tokens: 5, max_tokens: 5 }],
      ["target>max", { target_tokens: 6, max_tokens: 5 }],
      ["max null", { max_tokens: null }],
    ];
    for (const [label, budget] of budgets) add(`mode ${mode} budget ${label}`, setAt(setAt(full, ["context", "policy", "mode"], mode), ["context", "budget"], budget));
  }
  add("budget huge target>max beyond 2^53", setAt(full, ["context", "budget"], { target_tokens: raw("9007199254740993"), max_tokens: raw("9007199254740992") }));
  add("budget huge target<max beyond 2^53", setAt(full, ["context", "budget"], { target_tokens: raw("9007199254740992"), max_tokens: raw("9007199254740993") }));

  const events = [
    "branch_unknown",
    "branch_match",
    "branch_diverged",
    "commit_match",
    "commit_advanced",
    "commit_diverged",
    "commit_unknown",
    "dirty_match",
    "dirty_changed",
    "dirty_tree_hash_match",
    "dirty_tree_hash_mismatch",
    "artifact_missing",
    "artifact_match",
    "artifact_hash_mismatch",
    "file_changed",
    "",
    "Branch_diverged",
    "always",
  ];
  for (const event of events) add(`invalidation event ${JSON.stringify(event)}`, setAt(full, ["workflow", "invalidation_rules", 0, "when"], { event }));
  add("invalidates unknown phase", setAt(full, ["workflow", "invalidation_rules", 0, "invalidates"], ["nope"]));
  add("invalidates nothing", setAt(full, ["workflow", "invalidation_rules", 0, "invalidates"], []));
  add("entry_phase unknown", setAt(full, ["execution", "entry_phase"], "nope"));
  add("duplicate phase names", setAt(full, ["workflow", "phases", 1, "name"], "full-phase-a"));
  add("empty phase name", setAt(full, ["workflow", "phases", 1, "name"], ""));
  add("short commit", setAt(full, ["provenance", "commit"], "abc"));
  add("artifact sha not hex", setAt(full, ["provenance", "artifacts", 0, "sha256"], "nope"));
  add("handoff with dirty_tree_sha256", setAt(full, ["provenance", "dirty_tree_sha256"], SHA));
  add("handoff dirty without tree hash", setAt(full, ["provenance", "dirty"], true));
  for (const check of [{ check: "current_branch" }, { check: "argv" }, { check: "argv", argv: [] }, { check: "path_exists" }, { check: "path_exists", path: "" }, { check: "nope" }]) {
    add(`preflight ${JSON.stringify(check)}`, setAt(full, ["runtime", "preflight"], [check]));
  }

  const cp = fullCheckpoint();
  for (const [label, prov] of [
    ["dirty, no tree", { dirty: true }],
    ["dirty, empty tree", { dirty: true, dirty_tree_sha256: "" }],
    ["clean, tree", { dirty: false, dirty_tree_sha256: SHA }],
    ["clean", { dirty: false }],
  ] as const) {
    add(`checkpoint ${label}`, setAt(cp, ["provenance"], { branch: "main", commit: "abc", ...prov }));
  }
  add("checkpoint context.optional", setAt(cp, ["context", "optional"], [{ path: "a.md" }]));
  add("checkpoint workflow", setAt(cp, ["workflow"], { phases: [] }));
  add("checkpoint sealed without max", setAt(cp, ["context", "budget"], { target_tokens: 5 }));

  const receipt = fullReceipt();
  const routing = ["requested_model", "observed_model", "requested_effort", "observed_effort", "fallback_authorized", "safety", "builder_identity", "verifier_identity"];
  let legacy = clone(receipt);
  for (const key of routing) legacy = setAt(legacy, [key], DELETE);
  add("receipt pre-Kernel-9 (all routing absent)", legacy);
  add("receipt pre-Kernel-9 with migrated_fields []", setAt(legacy, ["migrated_fields"], []));
  add("receipt partly migrated", setAt(receipt, ["safety"], DELETE));
  add("receipt safety unknown", setAt(receipt, ["safety"], "unknown"));
  add("receipt safety unknown, migrated", setAt(setAt(receipt, ["safety"], "unknown"), ["migrated_fields"], ["safety"]));
  for (const blank of ["", " ", "\u001f", "\u0085", "\u3000", "\ufeff"]) add(`receipt blank model ${JSON.stringify(blank)}`, setAt(receipt, ["requested_model"], blank));
  const routed = (patch: Doc) => ({ ...receipt, ...patch });
  for (const [label, patch] of [
    ["model mismatch", { requested_model: "a", observed_model: "b" }],
    ["model mismatch authorized", { requested_model: "a", observed_model: "b", fallback_authorized: true, fallback_reason: "outage" }],
    ["model mismatch authorized, blank reason", { requested_model: "a", observed_model: "b", fallback_authorized: true, fallback_reason: " " }],
    ["model mismatch authorized, reason unavailable", { requested_model: "a", observed_model: "b", fallback_authorized: true, fallback_reason: "unavailable" }],
    ["effort mismatch", { requested_effort: "high", observed_effort: "low" }],
    ["authorized without mismatch", { fallback_authorized: true, fallback_reason: "x" }],
    ["mismatch with unavailable", { requested_model: "a", observed_model: "unavailable" }],
    ["protected, same identities", { safety: "protected", builder_identity: "x", verifier_identity: "x" }],
    ["protected, distinct", { safety: "protected", builder_identity: "x", verifier_identity: "y" }],
    ["protected, unavailable", { safety: "protected", builder_identity: "x" }],
    ["ledger ts not RFC 3339", { loads_beyond_manifest: [{ path: "b.md", ts: "yesterday" }] }],
  ] as const)
    add(`receipt ${label}`, routed(patch));
  return cases;
}

function rawCases(): CorpusCase[] {
  const base = text(fullManifest());
  return [
    ["BOM", `\ufeff${base}`],
    ["trailing comma", base.replace(/\n}$/, ",\n}")],
    ["duplicate top-level key", base.replace('"schema": "kernel.handoff/v1",', '"schema": "kernel.handoff/v1",\n  "schema": "kernel.handoff/v1",')],
    ["duplicate nested key", base.replace('"dirty": false,', '"dirty": false,\n    "dirty": true,')],
    ["NaN tier", base.replace('"tier": 2', '"tier": NaN')],
    ["Infinity tier", base.replace('"tier": 2', '"tier": Infinity')],
    ["1E400 max", base.replace('"max_tokens": 4000', '"max_tokens": 1E400')],
    ["leading zero", base.replace('"tier": 2', '"tier": 02')],
    ["comment", base.replace("{\n", "{ // c\n")],
    ["single quotes", base.replace('"full-goal"', "'full-goal'")],
    ["lone surrogate escape", base.replace('"full-goal"', '"\\ud800"')],
    ["escaped NUL in a string", base.replace('"full-goal"', '"a\\u0000b"')],
    ["raw tab in a string", base.replace('"full-goal"', '"a\tb"')],
    ["CRLF whitespace", base.replace(/\n/g, "\r\n")],
    ["empty", ""],
    ["whitespace only", " \n"],
    ["array root", "[]"],
    ["null root", "null"],
    ["string root", '"kernel.handoff/v1"'],
    ["no schema", "{}"],
    ["other schema", '{"schema": "ce-handoff/v1"}'],
    ["schema not a string", '{"schema": 5}'],
    ["two documents", `${base}\n{}`],
    ["true as TRUE", base.replace('"dirty": false', '"dirty": False')],
    ["deep nesting", base.replace('"full-thread"', `${"[".repeat(200)}${"]".repeat(200)}`)],
  ].map(([name, t]) => ({ name: `raw: ${name}`, text: t! }));
}

/** Every case, from the real manifest, the maximal documents and our own created manifests. */
export function buildCorpus(created: { name: string; text: string }[] = []): CorpusCase[] {
  const real = JSON.parse(REAL_MANIFEST_TEXT) as Doc;
  return [
    { name: "real manifest", text: REAL_MANIFEST_TEXT },
    ...created.map((c) => ({ name: `created: ${c.name}`, text: c.text })),
    ...schemaMutations("real", real, SCHEMAS["kernel.handoff/v1"]!),
    ...schemaMutations("full", fullManifest(), SCHEMAS["kernel.handoff/v1"]!),
    ...schemaMutations("checkpoint", fullCheckpoint(), SCHEMAS["kernel.checkpoint/v1"]!),
    ...schemaMutations("receipt", fullReceipt(), SCHEMAS["kernel.context-receipt/v1"]!),
    ...ruleMutations(),
    ...rawCases(),
  ];
}

/** The invalid UTF-8 case needs bytes, not text. */
export const INVALID_UTF8 = Buffer.concat([Buffer.from('{"schema": "kernel.handoff/v1", "x": "'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
