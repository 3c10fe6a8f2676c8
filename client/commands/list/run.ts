import { implement } from "../command.js";
import { oneLine } from "../../platform/terminal.js";
import type { listSpec } from "./spec.js";
import { listStore, type StoreEntry } from "../../lib/store-index.js";

export interface ListResult {
  handoffs: StoreEntry[];
  searched: string[];
  warnings: string[];
}

export const command = implement<typeof listSpec>()({
  async run({ ctx }): Promise<ListResult> {
    const { entries, folders, warnings } = listStore(ctx.env);
    return { handoffs: entries, searched: folders, warnings };
  },
  human(result) {
    const warnings = result.warnings.map((w) => `warning: ${w}`);
    if (result.handoffs.length === 0) {
      return {
        err: [...warnings, `No handoffs in the managed store${result.searched.length ? ` (${result.searched.join(", ")})` : " (none exists on this machine yet)"}; 'handoff create' writes one.`].join(
          "\n",
        ),
      };
    }
    const out = result.handoffs.map((h) => `${h.created_at}  ${oneLine(h.title ?? "(untitled)")}\n  ${oneLine(h.path)}`).join("\n");
    return { out, ...(warnings.length > 0 ? { err: warnings.join("\n") } : {}) };
  },
  outcome: () => "ok",
});
