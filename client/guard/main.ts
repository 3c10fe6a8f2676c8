import { GUARD_HELP, runGuard } from "./run-guard.js";

/**
 * The guard's own entry (dist/guard.js): bin/handoff.js runs it for `handoff guard` before the
 * CLI bundle is loaded, because a hook runs on every tool call and must start near `node -e 0`.
 * Node built-ins only; no zod, no command registry.
 */
export async function runGuardProcess(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(GUARD_HELP);
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const outcome = runGuard(Buffer.concat(chunks).toString("utf8"), { cwd: process.cwd(), env: process.env });
  if (outcome.message) process.stderr.write(`${outcome.message}\n`);
  process.exitCode = outcome.exitCode;
}
