import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { isTempName, STALE_TEMP_MS } from "../../client/platform/fs.js";
import { writeExclusive } from "../../client/lib/store.js";
import { isWholeDocument } from "../helpers/whole-document.js";
import { tempDir } from "./git-repo.js";

// A writer killed at any point must leave the store holding complete handoffs or none: a real
// child process writes handoffs in a loop through the store's one exclusive writer and is
// SIGKILLed (by its process group) at random moments; then every final name in the folder is
// checked. The body is built by a content function of the final path, as a kernel manifest's is,
// which is exactly where a writer that reserves the name first leaves it empty.

const KILLS = 40;
/** A child that is never killed still stops: the loop is bounded. */
const MAX_WRITES = 5_000;

const work = tempDir("handoff-crash-");
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

/** The writer child: the store's own writeExclusive in a bounded loop, bundled from source. */
async function writerScript(): Promise<string> {
  const out = join(work, "writer.mjs");
  await build({
    stdin: {
      contents: [
        `import { writeExclusive } from "./client/lib/store.ts";`,
        `import { wholeDocument } from "./test/helpers/whole-document.ts";`,
        `const dir = process.argv[2];`,
        `process.stdout.write("ready\\n");`,
        `for (let n = 1; n <= ${MAX_WRITES}; n++) writeExclusive(dir, "handoff", ".md", (path) => wholeDocument(path, n));`,
      ].join("\n"),
      resolveDir: resolve("."),
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    logLevel: "silent",
  });
  return out;
}

/** Starts the writer, lets it run a random while after its first words, and kills its group. */
async function killedRun(script: string, dir: string): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [script, dir], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
  children.add(child);
  const exited = new Promise<NodeJS.Signals | null>((done) => child.on("exit", (_code, signal) => done(signal)));
  await new Promise<void>((ready) => child.stdout!.once("data", () => ready()));
  await new Promise((pause) => setTimeout(pause, Math.random() * 150));
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // It finished its bounded loop first.
  }
  const signal = await exited;
  children.delete(child);
  return signal;
}

describe("the exclusive writer survives SIGKILL", () => {
  it(`leaves only whole handoffs after ${KILLS} kills at random points`, async () => {
    const script = await writerScript();
    let kills = 0;
    let handoffs = 0;
    let temps = 0;
    const broken: string[] = [];
    for (let i = 0; i < KILLS; i++) {
      const dir = join(work, `store-${i}`);
      mkdirSync(dir, { mode: 0o700 });
      if ((await killedRun(script, dir)) === "SIGKILL") kills++;
      for (const name of readdirSync(dir)) {
        if (isTempName(name)) {
          temps++;
          continue;
        }
        const text = readFileSync(join(dir, name), "utf8");
        if (isWholeDocument(text)) handoffs++;
        else broken.push(`${name}: ${statSync(join(dir, name)).size} bytes`);
      }
      rmSync(dir, { recursive: true, force: true });
    }
    console.log(`store-crash: ${KILLS} runs, ${kills} killed, ${handoffs} whole handoffs, ${temps} leftover temporaries, ${broken.length} broken`);
    expect(kills).toBeGreaterThan(KILLS / 2);
    expect(broken).toEqual([]);
  }, 240_000);

  it("the next write removes a stale temporary and keeps a fresh one", () => {
    const dir = tempDir();
    try {
      const stale = join(dir, ".handoff.md.0123456789ab.handoff-tmp");
      const fresh = join(dir, ".handoff.md.ba9876543210.handoff-tmp");
      writeFileSync(stale, "half");
      writeFileSync(fresh, "in the making");
      const past = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
      utimesSync(stale, past, past);
      const { path } = writeExclusive(dir, "handoff", ".md", new TextEncoder().encode("whole\n"));
      expect(readdirSync(dir).sort()).toEqual([".handoff.md.ba9876543210.handoff-tmp", "handoff.md"]);
      expect(readFileSync(path, "utf8")).toBe("whole\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
