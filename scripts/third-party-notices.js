// The third-party notices of what the CLI's bundles carry: every package esbuild inlined into
// dist/ (read from its metafile, not from a list kept by hand), each with its own licence file,
// word for word. scripts/build-cli.js writes them to dist/THIRD-PARTY-NOTICES.md, which ships;
// a package inlined without a licence file of its own stops the build.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A package's folder in an input path of esbuild's metafile (`node_modules/@scope/name/...`), the innermost one. */
const PACKAGE = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//g;

/**
 * The packages (`name` and its folder under `root`) whose files are inputs of `metafile`'s outputs.
 * A package nested in another's node_modules is its own entry.
 */
export function bundledPackages(metafile) {
  const folders = new Map();
  for (const output of Object.values(metafile.outputs)) {
    for (const input of Object.keys(output.inputs)) {
      let folder;
      let name;
      for (const match of input.matchAll(PACKAGE)) {
        folder = input.slice(0, match.index + match[0].length - 1);
        name = match[1];
      }
      if (folder !== undefined) folders.set(folder, name);
    }
  }
  return [...folders].map(([folder, name]) => ({ name, folder })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.folder < b.folder ? -1 : 1));
}

/** The licence file a package ships (LICENSE, LICENCE, COPYING, with any extension), or undefined. */
function licenceFile(dir) {
  return readdirSync(dir)
    .filter((name) => /^(licen[cs]e|copying)(\.|-|$)/i.test(name))
    .sort()
    .map((name) => join(dir, name))[0];
}

/**
 * The text of THIRD-PARTY-NOTICES.md for `packages` (bundledPackages' answer), read under `root`:
 * each package's name, version, declared licence and its licence file. Throws when one has none.
 */
export function thirdPartyNotices(packages, root) {
  const sections = packages.map(({ name, folder }) => {
    const dir = join(root, folder);
    const file = existsSync(dir) ? licenceFile(dir) : undefined;
    if (file === undefined) throw new Error(`${folder} is bundled into dist/ but has no licence file: its notice cannot ship (add it by hand to scripts/third-party-notices.js, or stop bundling it)`);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const licence = readFileSync(file, "utf8").trim();
    return [`## ${name} ${manifest.version}`, "", `License: ${manifest.license ?? "see below"}`, "", "```", licence.replace(/```/g, "'''"), "```", ""].join("\n");
  });
  return [
    "# Third-party notices",
    "",
    "The files under dist/ carry code of the packages below, inlined by the build (scripts/build-cli.js).",
    "Each one's licence follows, as the package ships it.",
    "",
    ...sections,
  ].join("\n");
}
