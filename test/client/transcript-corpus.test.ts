import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createHandoff } from "../../client/ops/create/create.js";
import { draftFromTranscript } from "../../client/ops/create/read-transcript.js";
import { validateDocumentText } from "../../shared/document/validate-document.js";
import { assessSufficiency, extractOrientation } from "../../shared/orient/extract.js";
import { draftBody } from "../../shared/transcript/render.js";
import { CORPUS_SESSIONS, locateTranscripts } from "../helpers/transcript-corpus.js";
import { tempDir } from "./git-repo.js";

// The drafter on real sessions (test/helpers/transcript-corpus.ts): every draft names the person's
// task, never injected text; a compacted session carries the agent's summary; each handoff
// written from one is valid, sufficient and under 24 KB. Skipped, with the reason, without the corpus.

const corpus = locateTranscripts();
const base = tempDir("handoff-corpus-");
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Text the agents inject into user turns: none of it may be a title or an objective. */
const INJECTED = [
  /<task-notification>/,
  /<system-reminder>/,
  /<command-(?:name|message|args)>/,
  /<local-command-/,
  /Caveat: The messages below/,
  /\[Request interrupted/,
  /<ide_/,
  /# Context from my IDE setup/,
  /<environment_context>/,
  /<bash-(?:input|stdout|stderr)>/,
];

describe.skipIf("reason" in corpus)(`the real sessions${"reason" in corpus ? ` (skipped: ${corpus.reason})` : ""}`, () => {
  const { dir, files } = corpus as { dir: string; files: string[] };

  it("the corpus is the twelve sessions this test knows", () => {
    expect(files).toEqual(Object.keys(CORPUS_SESSIONS).sort());
  });

  it.each(Object.entries(CORPUS_SESSIONS))(
    "%s: names the person's task, quotes no injected text as theirs, carries a compaction's summary; the handoff is valid, sufficient and under 24 KB",
    async (file, expected) => {
      const path = join(dir, file);
      const draft = draftFromTranscript(path);
      const body = draftBody(draft, { roots: draft.cwd ? [draft.cwd] : [], transcriptPath: path, occasion: "at session end (other)" });
      const title = body.split("\n")[0]!;
      const flat = (text: string) => text.replace(/\s+/g, " ");
      expect(flat(draft.task?.text ?? "")).toContain(expected.task);
      expect(title.startsWith(`# ${flat(draft.task!.text).slice(0, 20)}`)).toBe(true);
      const objective = body.slice(body.indexOf("## Objective and current intent"), body.indexOf("\n## ", body.indexOf("## Objective and current intent") + 1));
      for (const injected of INJECTED) {
        expect(title).not.toMatch(injected);
        expect(objective).not.toMatch(injected);
      }
      if (expected.compacted) {
        expect(draft.summary?.sections.map((s) => s.role)).toEqual(expect.arrayContaining(["objective", "state", "unfinished", "failed"]));
        expect(body).toContain('The agent\'s compaction summary, "Primary Request and Intent" (its words):');
      } else {
        expect(draft.summary).toBeUndefined();
      }
      expect(assessSufficiency(extractOrientation({ format: "ce-handoff/v1", body, metadata: {} }))).toEqual({ sufficient: true, missing: [] });
      const env = { HANDOFF_ROOT: join(base, file) };
      const created = await createHandoff({ body, keywords: ["auto"], cwd: base, env }, { now: () => new Date("2026-12-01T10:00:00Z"), captureGit: async () => undefined });
      const bytes = new TextEncoder().encode(created.document).length;
      expect(bytes).toBeLessThan(24 * 1024);
      expect(validateDocumentText(created.result.path, created.document)).toMatchObject({ valid: true, issues: [] });
      // The handoff's title is the task (create takes Markdown code marks off a title).
      expect(created.result.metadata.title).toBe(title.slice(2).replace(/`/g, ""));
    },
  );
});
