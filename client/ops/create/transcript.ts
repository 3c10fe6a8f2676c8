import type { GitCapture } from "../../lib/git.js";

/** A body drafted from a transcript file, paths written relative to the repository or the session's folder. */
export async function transcriptBody(path: string, cwd: string, git: GitCapture | undefined): Promise<string> {
  const [{ draftFromTranscript }, { draftBody }, { refuseEmptyDraft }] = await Promise.all([
    import("./read-transcript.js"),
    import("../../../shared/transcript/render.js"),
    import("../../../shared/transcript/drafter.js"),
  ]);
  const draft = draftFromTranscript(path);
  refuseEmptyDraft(draft);
  return draftBody(draft, { roots: transcriptRoots(git, draft.cwd, cwd), transcriptPath: path });
}

/** What paths are written relative to, in order: the repository (paths are repository-relative), the session's folder, here. */
export function transcriptRoots(git: GitCapture | undefined, sessionCwd: string | undefined, cwd: string): string[] {
  return [...new Set([git?.toplevel, sessionCwd, cwd].filter((p): p is string => p !== undefined && p !== "/"))];
}
