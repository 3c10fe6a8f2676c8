import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CE_CONTRACT, type CeFields } from "../../shared/ce/contract.js";
import { serializeCeDocument } from "../../shared/ce/serialize.js";
import { ensureBuilt } from "../helpers/cli.js";
import { git, makeRepo } from "./git-repo.js";
import { privateDir, resumeJson, sandbox, writeFile } from "./resume-sandbox.js";

// Discovery reads heads while git is still answering (issue 26): the candidates read before its
// answer wait, then are ranked against the same checkout as every later one. A store larger than
// what is read between two turns of the event loop (256) has some of each.

beforeAll(ensureBuilt);
const box = sandbox();
afterAll(() => rmSync(box.base, { recursive: true, force: true }));

describe("discovery of a store read while git answers", () => {
  it("ranks every candidate against the checkout, the ones read before git's answer too", async () => {
    const repo = makeRepo(join(box.base, "app"));
    const root = git(repo, "rev-list", "--max-parents=0", "HEAD");
    const dir = privateDir(join(box.store, "misc"));
    const count = 1200;
    for (let i = 0; i < count; i++) {
      const created_at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      const fields: CeFields = { artifact_contract: CE_CONTRACT, created_at, title: `Step ${i}`, summary: "Same repository.", keywords: [], cwd: "/elsewhere", repo_root_sha: root };
      writeFile(join(dir, `h-${i}.md`), serializeCeDocument(fields, "# Notes\n"));
    }
    const { code, result } = await resumeJson(box, ["--max-candidates", "5000", "--limit", "3"], repo);
    expect(code).toBe(0);
    expect(result.searched).toMatchObject({ files: count, relevant: count });
    expect((result.candidates as { title: string }[]).map((c) => c.title)).toEqual([`Step ${count - 1}`, `Step ${count - 2}`, `Step ${count - 3}`]);
    for (const candidate of result.candidates as { reasons: string[] }[]) expect(candidate.reasons[0]).toMatch(/^same repository \(root [0-9a-f]{8}\)$/);
  });
});
