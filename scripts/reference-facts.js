// Regenerates the facts the tests keep from the contracts' reference material: kernel's reference
// verdicts over the conformance corpus (test/fixtures/kernel/reference-verdicts.json) and
// ce-handoff/v1's routing rules and quoted sentences (test/fixtures/ce/contract-facts.json).
// Needs the reference (HANDOFF_SPEC_DIR, or ../shared/spec beside the clone) and python3.
// Usage: npm run reference:facts
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

// The corpus and the reference driver are TypeScript test helpers: bundle them for this one run.
const { build } = await import("esbuild");
const out = mkdtempSync(join(tmpdir(), "reference-facts-"));
try {
  await build({
    absWorkingDir: root,
    entryPoints: ["test/helpers/reference-facts.ts"],
    outfile: join(out, "facts.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    // The bundle lives in a temp folder: paths the module derives from its own URL must point into the clone.
    define: { "import.meta.url": JSON.stringify(pathToFileURL(join(root, "test", "helpers", "reference-facts.ts")).href) },
  });
  const facts = await import(pathToFileURL(join(out, "facts.mjs")).href);
  const where = facts.locateReference();
  if (!("specDir" in where)) {
    console.error(`reference-facts: ${where.reason}`);
    process.exitCode = 3;
  } else {
    const kernel = facts.kernelFactsFrom(where.specDir);
    writeFileSync(facts.KERNEL_FACTS, `${JSON.stringify(kernel, null, 2)}\n`);
    const ce = facts.ceFactsFrom(where.specDir);
    writeFileSync(facts.CE_FACTS, `${JSON.stringify(ce, null, 2)}\n`);
    const exits = Object.values(kernel.verdicts);
    console.log(`reference-facts: ${exits.length} kernel verdicts (${exits.filter((e) => e === 0).length} valid) from ${where.specDir}`);
    console.log(`  -> ${facts.KERNEL_FACTS}`);
    console.log(`reference-facts: ${ce.routes.length} routing rules, ${ce.quotes.length} quoted sentences -> ${facts.CE_FACTS}`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
