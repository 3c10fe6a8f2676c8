// Types for scripts/third-party-notices.js (plain JavaScript, run by scripts/build-cli.js).

/** esbuild's metafile, the part read here. */
export interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}
/** The packages whose files are inputs of the metafile's outputs: name and folder (relative to the root). */
export function bundledPackages(metafile: Metafile): { name: string; folder: string }[];
/** The text of THIRD-PARTY-NOTICES.md; throws when a package has no licence file. */
export function thirdPartyNotices(packages: readonly { name: string; folder: string }[], root: string): string;
