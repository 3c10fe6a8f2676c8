import { HandoffError } from "../../shared/errors.js";
import type { Io } from "../io.js";

export const help = "handoff validate: not built yet";

export async function run(_args: string[], _io: Io): Promise<number> {
  throw new HandoffError("internal", "handoff validate is not built yet");
}
