/** The CLI's version, printed by --version and sent to MCP clients. */
export const VERSION = "0.1.0";
