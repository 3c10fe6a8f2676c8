// Bundles the CLI (client/ + shared/) into dist/ with esbuild, one self-contained CommonJS file
// per command path (dist/commands/<name>.cjs): bin/handoff.cjs loads exactly the file of the
// command it runs, so a command pays for its own code only, and never for the ES module loader.
// Measured against the code-split ES module build this replaced (CPU time, Node 20, this
// machine, docs in the issue 26 closing note): list 2.29x -> 1.49x node -e 0, create 4.96x ->
// 3.74x, validate 4.89x -> 3.71x before any change to the code itself.
//
// Each output file is one esbuild call over one entry (see outputs()); no source maps are made or
// referenced (the bundles keep their names, so stack traces read as the source does). The build
// also writes dist/THIRD-PARTY-NOTICES.md from esbuild's metafile (scripts/third-party-notices.js)
// and dist/metafile.json (what each file carries, for the tests; it does not ship).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundledPackages, thirdPartyNotices } from "./third-party-notices.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const CLI_ENTRY = "client/cli/main.ts";
const REGISTRY = "client/cli/registry.ts";

/**
 * Each command's name and the module its lazy loader imports, asked of the registry itself (the one
 * list of commands): it is bundled alone, to a temporary file, with every loader's import replaced
 * by a module that throws its own path; then each command in COMMANDS is loaded once, and the
 * error says which module it asked for (whatever shape the registry gives its loaders).
 */
async function commandModules(build) {
  const probe = {
    name: "probe-loaders",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => (args.kind === "dynamic-import" ? { path: args.path, namespace: "loader-probe" } : undefined));
      b.onLoad({ filter: /.*/, namespace: "loader-probe" }, (args) => ({ contents: `throw new Error(${JSON.stringify(`loader-probe:${args.path}`)});`, loader: "js" }));
    },
  };
  const dir = mkdtempSync(join(tmpdir(), "handoff-build-registry-"));
  let COMMANDS;
  try {
    await build({ ...COMMON, format: "esm", entryPoints: [REGISTRY], outfile: join(dir, "registry.mjs"), plugins: [probe] });
    ({ COMMANDS } = await import(pathToFileURL(join(dir, "registry.mjs")).href));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const modules = new Map();
  for (const command of COMMANDS) {
    const name = command.spec?.name ?? command.name;
    const loaded = await command.load().then(
      () => undefined,
      (error) => /^loader-probe:(.*)$/.exec(error.message)?.[1],
    );
    if (loaded === undefined) throw new Error(`the registry's loader of '${name}' imports no module of its own: build-cli cannot give it a bundle`);
    modules.set(name, loaded);
  }
  return modules;
}

/**
 * Inside the bundle of `name`, the registry's loaders of every other command resolve to a module
 * that fails loudly: the launcher never runs another command with this file, and leaving their
 * code out is what keeps each bundle to its own path.
 */
function onlyCommand(name, modules) {
  const others = new Set([...modules].filter(([other]) => other !== name).map(([, path]) => path));
  const registry = `${root}${REGISTRY}`;
  return {
    name: "only-command",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) =>
        args.importer === registry && args.kind === "dynamic-import" && others.has(args.path) ? { path: args.path, namespace: "other-command" } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: "other-command" }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`dist/commands/${name}.cjs runs 'handoff ${name}', not the module ${args.path}: rebuild with npm run build`)});`,
        loader: "js",
      }));
    },
  };
}

/**
 * Paths a command rarely runs, whose code its common path would otherwise compile on every run:
 * the command's bundle leaves the modules only they import out (each dynamic import of one
 * resolves to a module that fails loudly), and a second bundle, dist/paths/<name>-full.cjs,
 * carries the whole command. The command's bundle hands the process to it before evaluating
 * anything of its own when argv has one of `words` (a word or `word=value`, anywhere: a false
 * alarm only costs the full bundle), so one process never mixes the two (two copies of a
 * module, and of HandoffError, never meet).
 * create: --publish (the publish client, its HTTP and crypto, the guard's policy for the body
 * file), --format kernel, --from-transcript and --with-changes. create.cjs went from 403 KB to
 * 235 KB (compiling it on Node 20: about 35 us per KB on this machine).
 */
const RARE_PATHS = {
  create: {
    words: ["--publish", "--format", "--from-transcript", "--with-changes"],
    modules: ["client/ops/publish/publish-file.ts", "client/ops/guard/policy.ts", "client/ops/create/kernel.ts", "client/ops/create/transcript.ts", "client/lib/changes/capture.ts"],
  },
};

/** The dynamic imports of a rare path's modules, inside the command's own bundle: a module that fails loudly. */
function withoutRarePaths(name) {
  const modules = new Set(RARE_PATHS[name].modules.map((file) => `${root}${file}`));
  return {
    name: "without-rare-paths",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind !== "dynamic-import") return undefined;
        const target = join(args.resolveDir, args.path).replace(/\.js$/, ".ts");
        return modules.has(target) ? { path: target.slice(root.length), namespace: "rare-path" } : undefined;
      });
      build.onResolve({ filter: /^\.\.\/paths\// }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: "rare-path" }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`dist/commands/${name}.cjs leaves ${args.path} to dist/paths/${name}-full.cjs, which argv did not ask for: a word in RARE_PATHS.${name} of scripts/build-cli.js is missing`)});`,
        loader: "js",
      }));
    },
  };
}

/** The entry of a command's bundle that has rare paths: the full bundle when argv asks for one, else its own CLI. */
function routedEntry(name) {
  const words = JSON.stringify(RARE_PATHS[name].words);
  return [
    `const words = ${words};`,
    'const rare = process.argv.slice(2).some((word) => words.some((rareWord) => word === rareWord || word.startsWith(rareWord + "=")));',
    `module.exports = rare ? require(${JSON.stringify(`../paths/${name}-full.cjs`)}) : require(${JSON.stringify(`./${CLI_ENTRY}`)});`,
  ].join("\n");
}

/**
 * Libraries that only some paths of a command use, each built once into dist/vendor/<name>.cjs
 * and required by the bundles only where a module that imports it is first evaluated: a
 * command that never validates with zod or parses YAML does not even parse them. Each holds the
 * library's exports that client/ and shared/ import, nothing more (a namespace import counts the
 * members it reads), so it is no larger than the bundled copy it replaces.
 */
const VENDOR = { "zod-mini": ["zod/mini", "zod/v4/locales"], zod: ["zod"], yaml: ["yaml"] };
const SPECIFIERS = Object.values(VENDOR).flat();
/**
 * Run once when a vendor file loads. zod compiles each schema into a function on its first
 * parse, which pays off over many parses (the worker); a command parses a handful of documents
 * and exits, and validate of kernel's manifest spent 14 ms of CPU (147.6 -> 133.5) compiling.
 * Parsing without it is the same check, interpreted.
 * The CLI's own schemas are zod/mini (its classes carry no methods per schema, so building the
 * kernel schemas and loading the library cost less), in a file of their own: a command that
 * validates loads no classic zod. Classic zod sets English messages when its first schema is
 * built; zod/mini alone would say "Invalid input", so its file sets the same locale (shared/
 * code that shows zod's own messages passes it to the parse too, so the words never depend on
 * which flavour a process happened to load).
 */
const VENDOR_SETUP = {
  "zod-mini": 'import { config as zodConfig } from "zod/mini";\nimport { en } from "zod/v4/locales";\nzodConfig({ jitless: true });\nzodConfig(en());',
  zod: 'import { config as zodConfig } from "zod";\nzodConfig({ jitless: true });',
};
/** The property of its vendor file's exports that holds one specifier's exports. */
const slot = (specifier) => specifier.replace(/\W/g, "_");
const vendorFileOf = (specifier) => Object.keys(VENDOR).find((file) => VENDOR[file].includes(specifier));

/**
 * The runtime exports of `lib` that the client's sources use: `import { a } from`, or `ns.a`
 * after `import * as ns from`. Read from each file with its types stripped (a name used only
 * as a type, like `z.core.$ZodRawIssue`, must not pull a namespace in).
 */
async function usedExports(lib, transform) {
  const runtime = await import(lib);
  const used = new Set();
  const imports = new RegExp(`import\\s*(?:\\*\\s*as\\s+(\\w+)|\\{([^}]*)\\})\\s*from\\s*"${lib}"`, "g");
  for (const dir of ["client", "shared"]) {
    for (const file of readdirSync(`${root}${dir}`, { recursive: true })) {
      if (!String(file).endsWith(".ts")) continue;
      const source = readFileSync(`${root}${dir}/${file}`, "utf8");
      if (!source.includes(`"${lib}"`)) continue;
      const { code } = await transform(source, { loader: "ts" });
      for (const [, namespace, names] of code.matchAll(imports)) {
        if (names) for (const name of names.split(",")) used.add(name.trim().split(/\s+as\s+/)[0]);
        if (!namespace) continue;
        for (const [, member] of code.matchAll(new RegExp(`\\b${namespace}\\.(\\w+)`, "g"))) used.add(member);
        // The namespace itself passed around (not `ns.member`) could reach any export: refuse to guess.
        const outsideStrings = code.replace(imports, "").replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
        if (outsideStrings.match(new RegExp(`(?:[(,=:?[{]|\\breturn|\\.\\.\\.)\\s*${namespace}\\b(?!\\s*\\.)`)))
          throw new Error(`${dir}/${file} uses \`${namespace}\` from "${lib}" other than as ${namespace}.member: vendor its every export`);
      }
    }
  }
  return [...used].filter((name) => name !== "" && name in runtime).sort();
}

/**
 * Bundles import each vendored library from its own file, one copy per process, and only when
 * one of its exports is first read: an import is an object of getters, so a module that imports
 * zod and builds its schemas on first use (shared/ does) costs nothing until it validates.
 */
function vendored(exportsOf) {
  return {
    name: "vendored",
    setup(build) {
      const exact = new RegExp(`^(${SPECIFIERS.map((s) => s.replace("/", "\\/")).join("|")})$`);
      build.onResolve({ filter: exact }, (args) => ({ path: args.path, namespace: "vendored" }));
      build.onLoad({ filter: /.*/, namespace: "vendored" }, (args) => {
        const file = `../vendor/${vendorFileOf(args.path)}.cjs`;
        const getters = exportsOf.get(args.path).map((name) => `get ${name}() { return load().${name}; }`);
        return { contents: `let lib;\nconst load = () => (lib ??= require(${JSON.stringify(file)}).${slot(args.path)});\nmodule.exports = { ${getters.join(", ")} };`, loader: "js" };
      });
      build.onResolve({ filter: /^\.\.\/vendor\// }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/** The entry of one vendor file: for each specifier, an object of the exports the client uses. */
function vendorEntry(file, exportsOf) {
  const lines = VENDOR_SETUP[file] ? [VENDOR_SETUP[file]] : [];
  for (const specifier of VENDOR[file]) {
    const names = exportsOf.get(specifier);
    lines.push(`import { ${names.map((name, i) => `${name} as ${slot(specifier)}_${i}`).join(", ")} } from "${specifier}";`);
    lines.push(`export const ${slot(specifier)} = { ${names.map((name, i) => `${name}: ${slot(specifier)}_${i}`).join(", ")} };`);
  }
  return lines.join("\n");
}

const COMMON = {
  absWorkingDir: root,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
};
/**
 * The bundles themselves: CommonJS throughout. A lazy `await import("node:fs/promises")` is
 * lowered to `require`, so the first one does not start the ES module loader (about 6 ms on
 * Node 20), and every module a bundle loads is a CommonJS file of dist/, which the launcher
 * compiles and caches itself (see bin/handoff.cjs).
 */
const BUNDLE = { ...COMMON, supported: { "dynamic-import": false } };

/** Options every command's bundle shares (the fast paths use the same define and banner). */
function commandBundle(name, modules, exportsOf, plugins, entry) {
  return {
    ...entry,
    plugins: [onlyCommand(name, modules), vendored(exportsOf), ...plugins],
    // Compiling is a command's largest single cost wherever no code cache holds it (the first run
    // after an install or a build, NODE_DISABLE_COMPILE_CACHE, no private cache folder): whitespace and
    // syntax minified, create.cjs compiles in 11.5 ms instead of 13.9 (403 KB -> 311 KB, before its
    // rare paths left it). Names are kept: stack traces and the bundle tests read them.
    minifyWhitespace: true,
    minifySyntax: true,
    ...MODULE_URL,
  };
}

/** The one ES module idiom in the client (install-skill finds the shipped skill from its own path): in CommonJS, the file's own URL. */
const MODULE_URL = {
  define: { "import.meta.url": "__handoffModuleUrl" },
  banner: { js: 'const __handoffModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
};

/**
 * Every file the build writes, each `{ outfile, ...esbuild options }` with one entry: the vendored
 * libraries, one bundle per command (and create's full bundle), the help module and the guard.
 */
function outputs(modules, exportsOf) {
  const vendor = Object.keys(VENDOR).map((file) => ({ outfile: `dist/vendor/${file}.cjs`, stdin: { contents: vendorEntry(file, exportsOf), resolveDir: root, sourcefile: `vendor-${file}.js` } }));
  const commands = [...modules.keys()].flatMap((name) =>
    RARE_PATHS[name]
      ? [
          {
            outfile: `dist/commands/${name}.cjs`,
            ...commandBundle(name, modules, exportsOf, [withoutRarePaths(name)], { stdin: { contents: routedEntry(name), resolveDir: root, sourcefile: `${name}-entry.js` } }),
          },
          { outfile: `dist/paths/${name}-full.cjs`, ...commandBundle(name, modules, exportsOf, [], { entryPoints: [CLI_ENTRY] }) },
        ]
      : [{ outfile: `dist/commands/${name}.cjs`, ...commandBundle(name, modules, exportsOf, [], { entryPoints: [CLI_ENTRY] }) }],
  );
  // The launcher's two fast paths, each one small file: help and --version from the declarations,
  // and the guard hook, which runs on every tool call. The declarations' lazy loaders are never
  // called on the help path: leave out every module they load, as the registry names them (a
  // hand-kept list missed `handoff hook`'s, and help.cjs carried the whole hook command: 633 KB,
  // --help 1.8x node -e 0 on Node 20).
  const fast = [
    { outfile: "dist/help.cjs", entryPoints: ["client/cli/help-main.ts"] },
    { outfile: "dist/guard.cjs", entryPoints: ["client/hook/guard.ts"] },
  ].map((entry) => ({ ...entry, external: [...new Set(modules.values())], ...MODULE_URL }));
  return [...vendor, ...commands, ...fast];
}

export async function buildCli() {
  const { build, transform } = await import("esbuild");
  // What earlier builds wrote (the code-split ES module CLI, the ES module fast paths) must not linger.
  for (const old of ["chunks", "commands", "paths", "vendor", "cli.js", "cli.js.map", "help.js", "guard.js"]) rmSync(`${root}/dist/${old}`, { recursive: true, force: true });
  const modules = await commandModules(build);
  const exportsOf = new Map(await Promise.all(SPECIFIERS.map(async (specifier) => [specifier, await usedExports(specifier, transform)])));
  const results = await Promise.all(outputs(modules, exportsOf).map((options) => build({ ...BUNDLE, sourcemap: false, metafile: true, ...options })));
  const metafile = { inputs: {}, outputs: {} };
  for (const result of results) {
    Object.assign(metafile.inputs, result.metafile.inputs);
    Object.assign(metafile.outputs, result.metafile.outputs);
  }
  writeFileSync(`${root}dist/metafile.json`, `${JSON.stringify(metafile)}\n`);
  writeFileSync(`${root}dist/THIRD-PARTY-NOTICES.md`, thirdPartyNotices(bundledPackages(metafile), root));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildCli();
}
