import { HandoffError } from "../../../shared/errors.js";
import { implement } from "../command.js";
import { oneLine } from "../../platform/terminal.js";
import type { rmSpec } from "./spec.js";
import { deleteHandoffs, type StoreEntry, storeHandoff } from "../../lib/store-index.js";

export interface RmResult {
  removed: string[];
}

export const command = implement<typeof rmSpec>()({
  async run({ positionals, ctx }): Promise<RmResult> {
    const proven: StoreEntry[] = [];
    const refused: string[] = [];
    for (const path of positionals) {
      const entry = storeHandoff(path, ctx.env, ctx.cwd);
      if (typeof entry === "string") refused.push(`${path}: ${entry}`);
      else proven.push(entry);
    }
    // All or nothing: one doubtful file means nothing is deleted.
    if (refused.length > 0) {
      throw new HandoffError(
        "invalid_document",
        `not deleting anything: ${refused.length === 1 ? "this is" : "these are"} not provably a handoff in the managed store:\n${refused.map((r) => `  ${oneLine(r)}`).join("\n")}`,
        {
          hint: "rm deletes only ce-handoff/v1 files you own inside the managed store; 'handoff list' shows them",
        },
      );
    }
    deleteHandoffs(proven);
    return { removed: proven.map((e) => e.path) };
  },
  human: (result) => ({ err: result.removed.map((p) => `removed ${oneLine(p)}`).join("\n") }),
  outcome: () => "ok",
});
