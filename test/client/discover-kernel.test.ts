import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/cli.js";
import { fullCheckpoint, fullManifest } from "../helpers/kernel-corpus.js";
import { liveReferenceScript, referenceHere } from "../helpers/kernel-reference.js";
import { makeRepo } from "./git-repo.js";
import { resumeJson, sandbox } from "./resume-sandbox.js";

beforeAll(ensureBuilt);

interface Candidate {
  path: string;
  indexed: boolean;
  title: string | null;
  created_at: string | null;
  summary: string | null;
}

describe("discovery and the repository's kernel manifests", () => {
  it("lists _meta/handoffs and _meta/checkpoints among the candidates, indexed from their JSON, newest first like the reference's latest", async () => {
    const box = sandbox();
    const repo = makeRepo(join(box.base, "app"), { "README.md": "# App\n", "a.md": "# A\n" });
    mkdirSync(join(repo, "_meta", "handoffs"), { recursive: true });
    mkdirSync(join(repo, "_meta", "checkpoints"), { recursive: true });
    const manifest = fullManifest();
    manifest.provenance.branch = "main";
    manifest.identity.created = new Date(Date.now() - 3 * 3600_000).toISOString();
    const checkpoint = fullCheckpoint();
    checkpoint.identity.created = new Date(Date.now() - 3600_000).toISOString();
    writeFileSync(join(repo, "_meta", "handoffs", "older.json"), JSON.stringify(manifest, null, 2));
    writeFileSync(join(repo, "_meta", "checkpoints", "newer.json"), JSON.stringify(checkpoint, null, 2));
    writeFileSync(join(repo, "_meta", "handoffs", "notes.json"), "{ not json");

    const { code, result } = await resumeJson(box, [], repo);
    expect(code).toBe(0);
    const kernel = (result.candidates as Candidate[]).filter((c) => c.path.includes("_meta"));
    expect(kernel.slice(0, 2).map((c) => [c.path.slice(repo.length + 1), c.title, c.summary])).toEqual([
      ["_meta/checkpoints/newer.json", "cp", "g"],
      ["_meta/handoffs/older.json", "full-name", "full-goal"],
    ]);
    expect(kernel[0]!.created_at).toBe(checkpoint.identity.created);
    expect(kernel.find((c) => c.path.endsWith("notes.json"))).toMatchObject({ indexed: false });
    expect(result.boundary).toContain(join(repo, "_meta", "handoffs"));

    if (!referenceHere()) return;
    const latest = spawnSync("python3", [liveReferenceScript(), "latest"], { cwd: repo, encoding: "utf8" });
    expect(latest.stdout.trim()).toBe("_meta/checkpoints/newer.json");
    expect(kernel[0]!.path).toBe(join(repo, latest.stdout.trim()));
  });
});

describe("discovery counts and lists every file it does not index", () => {
  it("other file types and files deeper than the walk: counted, listed with why, also in the human output", async () => {
    const box = sandbox();
    const dir = join(box.store, "app-0123456789ab");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, "real.md"), "# Real\n\nObjective: x.\n");
    writeFileSync(join(dir, "diagram.png"), "png");
    const deep = join(dir, ...Array.from({ length: 9 }, (_, i) => `d${i}`));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, "deep.md"), "# Deep\n");
    const { result } = await resumeJson(box, [], box.base);
    expect(result.searched.not_indexed.count).toBe(2);
    expect(result.searched.not_indexed.files).toEqual(
      expect.arrayContaining([
        { path: join(dir, "diagram.png"), reason: expect.stringMatching(/not a handoff file type/) },
        { path: join(deep, "deep.md"), reason: "more than 8 folders below the boundary" },
      ]),
    );
    const { runCli } = await import("../helpers/cli.js");
    const human = await runCli(["resume"], { cwd: box.base, env: box.env });
    expect(human.stdout).toContain("not indexed: 2 files in the searched folders");
    expect(human.stdout).toContain("diagram.png: not a handoff file type");
  });
});
