export const LIFECYCLE_RULES: { name: string; prefix: string; days: number }[];
export function parseArgs(argv: string[]): { dryRun?: boolean; help?: boolean; error?: string };
export function deployTarget(tomlText: string): { name: string; bucket: string };
export function deployedUrl(output: string): string | undefined;
export function plan(target: { name: string; bucket: string }): string[];
