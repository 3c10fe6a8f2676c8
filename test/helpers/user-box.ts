// A fresh user for a CLI test: a folder of its own with its HOME, TMPDIR, store and config inside
// it, and git's identity and dates fixed, so runs never see the machine's real user or each other.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { GIT_ENV } from "../client/git-repo.js";

export interface UserBox {
  dir: string;
  env: Record<string, string>;
}

/** Makes boxes `b0`, `b1`, … under `base` (which the test file removes in afterAll). */
export function userBoxes(base: string): () => UserBox {
  let n = 0;
  return () => {
    const dir = join(base, `b${n++}`);
    mkdirSync(join(dir, "home"), { recursive: true });
    return { dir, env: { ...GIT_ENV, HOME: join(dir, "home"), TMPDIR: dir, HANDOFF_ROOT: join(dir, "store"), XDG_CONFIG_HOME: join(dir, "config") } };
  };
}
