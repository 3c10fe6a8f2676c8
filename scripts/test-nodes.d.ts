/** Each major version tested besides the running one, and the exact release. */
export const TEST_NODES: Record<number, string>;
/** The registry package with the Node binary for this machine. */
export function platformPackage(platform?: string, arch?: string): string;
/** Where a version's binary is once installed, or why it is not. */
export function testNode(major: number): { node: string; version: string } | { reason: string };
