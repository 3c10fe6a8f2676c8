import { delimiter, join } from "node:path";
import { type CliRun, ensureBuilt, repoRoot, runProgram } from "./cli.js";

/**
 * The package as a user gets it: `npm pack` of this project (what the shared build made;
 * --ignore-scripts so packing does not rebuild dist/ under other test files' CLIs), installed
 * from the tarball into a prefix of its own, offline. Returns the prefix's bin folder.
 */
export async function installPackedCli(base: string): Promise<string> {
  const npm = (args: string[], cwd: string): Promise<CliRun> =>
    runProgram("npm", [...args, "--cache", join(base, "npm-cache"), "--offline", "--no-audit", "--no-fund", "--loglevel", "error"], { cwd, env: { HOME: join(base, "npm-home") } });
  await ensureBuilt();
  const packed = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", base], repoRoot);
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const [entry] = JSON.parse(packed.stdout) as { filename: string }[];
  const prefix = join(base, "prefix");
  const installed = await npm(["install", "--global", "--prefix", prefix, join(base, entry!.filename)], base);
  if (installed.code !== 0) throw new Error(`npm install failed: ${installed.stderr}`);
  return join(prefix, "bin");
}

/** A user of the installed CLI: their own HOME, store and config under `dir`; the prefix's bin first on PATH. */
export function installedUserEnv(dir: string, bin: string, extraEnv: Record<string, string> = {}): Record<string, string> & { HOME: string; XDG_CONFIG_HOME: string; HANDOFF_ROOT: string } {
  return {
    PATH: `${bin}${delimiter}${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    HANDOFF_ROOT: join(dir, "handoffs"),
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    ...extraEnv,
  };
}
