// Types for scripts/build-reader.js (plain JavaScript so `npm run build` needs no TypeScript step).
import type { BuildOptions } from "esbuild";

export const READER_ENTRY: string;
/** Where wrangler's static assets come from ([assets] in wrangler.toml). */
export const ASSETS_DIR: string;
export const READER_FILE: string;
export function readerBuildOptions(tree: string): BuildOptions & { write: false };
/** Builds the reader, writes dist/public/reader.js only when it changes, and returns the script. */
export function buildReader(): Promise<string>;
