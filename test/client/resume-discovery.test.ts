import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/cli.js";
import { git, makeRepo } from "./git-repo.js";
import { type Sandbox, ceText, createHandoff, privateDir, resume, resumeJson, sandbox, writeFile } from "./resume-sandbox.js";

beforeAll(ensureBuilt);

/** Never printed by discovery: it sits in bodies, which discovery must not read. */
const BODY_MARKER = "BODY-MARKER-never-read-during-discovery";

interface Store {
  box: Sandbox;
  alpha: string;
  beta: string;
  plain: string;
  paths: { auth: string; billing: string; search: string; groceries: string };
}

/** Handoffs made with `handoff create` in two repositories and outside git. */
async function store(): Promise<Store> {
  const box = sandbox();
  // Different files: with fixed commit dates, equal trees would give both repos the same root commit.
  const alpha = makeRepo(join(box.base, "alpha"), { "README.md": "# Alpha\n" });
  const beta = makeRepo(join(box.base, "beta"), { "README.md": "# Beta\n" });
  const plain = join(box.base, "plain");
  mkdirSync(plain);
  const body = (title: string) => `# ${title}\n\nObjective: ${title}.\n\n## Current state\n${BODY_MARKER}\n`;
  const auth = await createHandoff(box, alpha, body("Auth token refresh"), ["--keyword", "auth", "--summary", "Refresh tokens half done."]);
  const billing = await createHandoff(box, alpha, body("Billing export"), ["--keyword", "billing", "--summary", "CSV export for invoices."]);
  const search = await createHandoff(box, beta, body("Search indexing"), ["--keyword", "search", "--summary", "Incremental reindex."]);
  const groceries = await createHandoff(box, plain, body("Grocery list"), ["--summary", "Milk and eggs."]);
  return { box, alpha, beta, plain, paths: { auth, billing, search, groceries } };
}

describe("handoff resume: discovery shortlist", () => {
  it("ranks the keyword match first, with reasons, and selects nothing", async () => {
    const s = await store();
    const { code, result } = await resumeJson(s.box, ["auth", "refresh"], s.plain);
    expect(code).toBe(0);
    expect(result.selected).toBeNull();
    expect(result.candidates.map((c: { path: string }) => c.path)).toEqual([s.paths.auth]);
    expect(result.candidates[0].reasons).toEqual(expect.arrayContaining(["title matches 'auth', 'refresh'", "keywords include 'auth'", "keywords overlap: 'auth' (1 of 2)"]));

    const human = await resume(s.box, ["auth", "refresh"], s.plain);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("1. Auth token refresh");
    expect(human.stdout).toContain("   summary: Refresh tokens half done.");
    expect(human.stdout).toContain(`   source: ${s.paths.auth}`);
    expect(human.stdout).toMatch(/ {3}why: title matches 'auth', 'refresh'; /);
    expect(human.stdout).toContain(`Nothing was selected. Choose one and resume from it:\n\n\`\`\`\nhandoff resume '${s.paths.auth}'\n\`\`\``);
    expect(human.stdout + human.stderr).not.toContain(BODY_MARKER);
  });

  it.each([
    ["alpha", (s: Store) => s.alpha, (s: Store) => [s.paths.billing, s.paths.auth]],
    ["beta", (s: Store) => s.beta, (s: Store) => [s.paths.search]],
  ])("without keywords, repository affinity puts %s's handoffs first", async (_name, cwd, expected) => {
    const s = await store();
    const { code, result } = await resumeJson(s.box, [], cwd(s));
    expect(code).toBe(0);
    const own = expected(s);
    expect(result.candidates.slice(0, own.length).map((c: { path: string }) => c.path)).toEqual(own);
    const rootSha = git(cwd(s), "rev-list", "--max-parents=0", "HEAD");
    for (const candidate of result.candidates.slice(0, own.length)) {
      expect(candidate.reasons).toContain(`same repository (root ${rootSha.slice(0, 8)})`);
    }
    expect(result.candidates).toHaveLength(4);
  });

  it("--limit cuts the shortlist, not the search", async () => {
    const s = await store();
    const { result } = await resumeJson(s.box, ["--limit", "2"], s.plain);
    expect(result.candidates).toHaveLength(2);
    expect(result.searched).toMatchObject({ files: 4, relevant: 4 });
    expect(result.filters).toEqual({ keywords: [], max_candidates: 1000, limit: 2 });
    // Every candidate, not only the first, gets its own copyable resume command.
    const human = await resume(s.box, ["--limit", "2"], s.plain);
    for (const [i, candidate] of result.candidates.entries()) {
      expect(human.stdout).toContain(`${i + 1}.\n\`\`\`\nhandoff resume '${(candidate as { path: string }).path}'\n\`\`\``);
    }
  });

  it("--json has exactly the documented shape", async () => {
    const s = await store();
    const { result } = await resumeJson(s.box, ["grocery"], s.plain);
    expect(Object.keys(result)).toEqual(["boundary", "filters", "candidates", "selected", "searched", "warnings"]);
    expect(result).toMatchObject({ boundary: [s.box.store], filters: { keywords: ["grocery"], max_candidates: 1000, limit: 5 }, selected: null, warnings: [] });
    expect(result.candidates).toHaveLength(1);
    const [candidate] = result.candidates;
    expect(Object.keys(candidate)).toEqual(["path", "indexed", "title", "created_at", "summary", "score", "reasons"]);
    expect(candidate).toMatchObject({ path: s.paths.groceries, indexed: true, title: "Grocery list", summary: "Milk and eggs." });
    expect(candidate.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(candidate.score).toBeGreaterThan(0);
  });

  it("nothing matched: exit 1, and the message names the boundary and the filters", async () => {
    const s = await store();
    const run = await resume(s.box, ["zebra", "crossing"], s.plain);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("No relevant handoff found.");
    expect(run.stderr).toContain(`  searched: ${s.box.store}`);
    expect(run.stderr).toContain("  filters: keywords 'zebra', 'crossing'; 4 files looked at (max 1000 per folder)");
    expect(run.stderr).toContain("handoff create");
    const json = await resumeJson(s.box, ["zebra"], s.plain);
    expect(json.code).toBe(1);
    expect(json.result.candidates).toEqual([]);
  });

  it("an empty sandbox: exit 1, and says that no store exists yet", async () => {
    const box = sandbox();
    const run = await resume(box, [], box.base);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("searched: no managed store exists yet on this machine");
  });
});

describe("handoff resume: a folder is a boundary, not a selection", () => {
  function folderStore() {
    const box = sandbox();
    const notes = privateDir(join(box.base, "notes"));
    writeFile(join(notes, "auth.md"), ceText({ title: "Auth notes", keywords: ["auth"] }, `# Auth\n\n${BODY_MARKER}\n`));
    writeFile(join(notes, "deploy.md"), ceText({ title: "Deploy notes", keywords: ["deploy"] }, `# Deploy\n\n${BODY_MARKER}\n`));
    return { box, notes };
  }

  it.each([
    ["a folder argument", (notes: string) => [notes]],
    ["a relative folder argument with keywords", () => ["notes", "deploy"]],
    ["--in DIR", (notes: string) => ["--in", notes]],
    ["--in DIR with keywords", () => ["--in", "notes", "deploy"]],
  ])("%s lists candidates in that folder only", async (name, args) => {
    const { box, notes } = folderStore();
    // A managed store with its own handoff that must not show up.
    privateDir(join(box.store, "general"));
    writeFile(join(box.store, "general", "other.md"), ceText({ title: "Deploy elsewhere", keywords: ["deploy"] }));
    const { code, result } = await resumeJson(box, args(notes), box.base);
    expect(code).toBe(0);
    expect(result.boundary).toEqual([notes]);
    expect(result.selected).toBeNull();
    const paths = result.candidates.map((c: { path: string }) => c.path);
    expect(paths).toEqual(name.includes("keywords") ? [join(notes, "deploy.md")] : expect.arrayContaining([join(notes, "auth.md"), join(notes, "deploy.md")]));
    expect(paths).toHaveLength(name.includes("keywords") ? 1 : 2);
  });

  it("a folder with nothing in it: exit 1 naming that folder", async () => {
    const box = sandbox();
    const empty = privateDir(join(box.base, "empty"));
    const run = await resume(box, [empty], box.base);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`searched: ${empty}`);
  });

  it("--in a file is a usage error", async () => {
    const { box, notes } = folderStore();
    const run = await resume(box, ["--in", join(notes, "auth.md")], box.base);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--in ${join(notes, "auth.md")} is not a folder`);
  });
});

describe("handoff resume: unindexed candidates are listed, labelled, and read no further", () => {
  it("a file without frontmatter: first line only; 70 lines without a closing delimiter: nothing indexed", async () => {
    const box = sandbox();
    const dir = privateDir(join(box.base, "mixed"));
    writeFile(join(dir, "plain-notes.md"), `# Plain notes about caching\n${BODY_MARKER}\n`.repeat(50));
    const open = ["---", ...Array.from({ length: 69 }, (_, i) => `key${i}: value ${i}`), `title: "${BODY_MARKER}"`, "---", "body"].join("\n");
    writeFile(join(dir, "unclosed.md"), open);
    writeFile(join(dir, "indexed.md"), ceText({ title: "Indexed one" }));

    const { code, result } = await resumeJson(box, ["--in", dir, "--limit", "10"], box.base);
    expect(code).toBe(0);
    const byName = Object.fromEntries(result.candidates.map((c: { path: string }) => [c.path.slice(dir.length + 1), c]));
    expect(Object.keys(byName).sort()).toEqual(["indexed.md", "plain-notes.md", "unclosed.md"]);
    expect(byName["plain-notes.md"]).toMatchObject({ indexed: false, title: null, summary: null, unindexed_reason: "no frontmatter", first_line: "# Plain notes about caching" });
    expect(byName["unclosed.md"]).toMatchObject({ indexed: false, title: null, unindexed_reason: "no closing --- within the first 64 lines and 16 KiB" });
    expect(byName["unclosed.md"].reasons[0]).toMatch(/^unindexed: /);
    expect(byName["indexed.md"]).toMatchObject({ indexed: true, title: "Indexed one" });

    const human = await resume(box, ["--in", dir, "--limit", "10"], box.base);
    expect(human.stdout).toContain("(unindexed: no frontmatter)");
    expect(human.stdout).toContain("   first line: # Plain notes about caching");
    expect(human.stdout).toContain("(unindexed: no closing --- within the first 64 lines and 16 KiB)");
    expect(human.stdout + human.stderr).not.toContain(BODY_MARKER);
    expect(JSON.stringify(result)).not.toContain(BODY_MARKER);
  });

  it("an unindexed candidate matches keywords by its file name only", async () => {
    const box = sandbox();
    const dir = privateDir(join(box.base, "mixed"));
    writeFile(join(dir, "caching-notes.md"), `# Something\nredis redis redis\n`);
    const byName = await resumeJson(box, ["--in", dir, "caching"], box.base);
    expect(byName.code).toBe(0);
    expect(byName.result.candidates[0].reasons).toContain("file name matches 'caching'");
    const byBody = await resumeJson(box, ["--in", dir, "redis"], box.base);
    expect(byBody.code).toBe(1);
  });
});
