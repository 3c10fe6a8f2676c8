/** Layering rules, checked by `npm run lint:deps` (part of `npm test`). */
module.exports = {
  forbidden: [
    {
      name: "shared-is-the-core",
      comment: "shared/ is values in, values out: it imports neither the CLI nor the worker.",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: "^(client|worker)/" },
    },
    {
      name: "client-never-imports-worker",
      severity: "error",
      from: { path: "^client/" },
      to: { path: "^worker/" },
    },
    {
      name: "worker-never-imports-client",
      severity: "error",
      from: { path: "^worker/" },
      to: { path: "^client/" },
    },
    {
      name: "commands-never-import-each-other",
      comment: "Each command is a feature; what two share lives in a module outside client/commands/ (create and create-kernel are one feature).",
      severity: "error",
      from: { path: "^client/commands/([^/]+)\\.ts$" },
      to: { path: "^client/commands/", pathNot: ["^client/commands/$1\\.ts$", "^client/commands/create(-kernel)?\\.ts$"] },
    },
    {
      name: "libraries-never-import-commands",
      comment:
        "Modules that commands share never reach back into a command. The MCP server (client/mcp/) and the hook handler (client/hook/) are, like the registry, front ends: they call the operations the commands export (discoverShortlist, orientFromSource, compileManifest, createHandoff), lazily, so the agent gets the same result objects --json prints.",
      severity: "error",
      from: { path: "^client/", pathNot: ["^client/commands/", "^client/registry\\.ts$", "^client/mcp/", "^client/hook/"] },
      to: { path: "^client/commands/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      // Lazy command loading (dynamic import) and type-only imports are not load-time cycles.
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only", "dynamic-import"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
  },
};
