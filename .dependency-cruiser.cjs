/**
 * The layers, checked by `npm run lint` (part of `npm test`); docs/architecture.md says why.
 * client/: cli/, mcp/, hook/ (front ends) -> commands/ -> ops/ -> lib/ -> platform/ -> shared/.
 * Imports only point down; type-only and dynamic imports count like any other.
 */
const FRONT = "^client/(cli|mcp|hook)/";
module.exports = {
  forbidden: [
    {
      name: "shared-is-the-core",
      comment: "shared/ is values in, values out: it imports neither the CLI nor the worker.",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: "^(client|worker)/" },
    },
    { name: "client-never-imports-worker", severity: "error", from: { path: "^client/" }, to: { path: "^worker/" } },
    { name: "worker-never-imports-client", severity: "error", from: { path: "^worker/" }, to: { path: "^client/" } },
    {
      name: "client-files-live-in-a-layer",
      comment: "Every client file is in one of the layers' folders: no loose files at the top of client/.",
      severity: "error",
      from: { path: "^client/", pathNot: "^client/(cli|mcp|hook|commands|ops|lib|platform)/" },
      to: {},
    },
    {
      name: "shared-files-live-in-a-folder",
      comment: "shared/ has one folder per contract or kind of value; errors.ts is the one loose file.",
      severity: "error",
      from: { path: "^shared/[^/]+\\.ts$", pathNot: "^shared/errors\\.ts$" },
      to: {},
    },
    {
      name: "platform-is-the-os-only",
      comment: "platform/ wraps the OS (fs, paths, git, http, terminal, process): it knows no handoff concept.",
      severity: "error",
      from: { path: "^client/platform/" },
      to: { path: "^client/(lib|ops|commands|cli|mcp|hook)/" },
    },
    {
      name: "lib-never-imports-tasks",
      comment: "lib/ holds what two or more tasks share; it never reaches up into a task, a command or a front end.",
      severity: "error",
      from: { path: "^client/lib/" },
      to: { path: "^client/(ops|commands|cli|mcp|hook)/" },
    },
    {
      name: "ops-never-import-commands",
      comment: "An operation returns values and never prints; it knows no flags and no front end.",
      severity: "error",
      from: { path: "^client/ops/" },
      to: { path: "^client/(commands|cli|mcp|hook)/" },
    },
    {
      name: "no-op-imports-another",
      comment: "Each ops/<task>/ is one user task; what two tasks share moves down to lib/.",
      severity: "error",
      from: { path: "^client/ops/([^/]+)/" },
      to: { path: "^client/ops/", pathNot: "^client/ops/$1/" },
    },
    {
      name: "commands-never-import-front-ends",
      severity: "error",
      from: { path: "^client/commands/" },
      to: { path: FRONT },
    },
    {
      name: "commands-never-import-each-other",
      comment: "commands/<name>/ is one command; what commands share sits loose in commands/ (command.ts, flags.ts, reports).",
      severity: "error",
      from: { path: "^client/commands/([^/]+)/" },
      to: { path: "^client/commands/[^/]+/", pathNot: "^client/commands/$1/" },
    },
    {
      name: "command-helpers-never-import-a-command",
      severity: "error",
      from: { path: "^client/commands/[^/]+\\.ts$" },
      to: { path: "^client/commands/[^/]+/" },
    },
    {
      name: "front-ends-stay-apart",
      comment: "The MCP server and the hook never import the CLI; the CLI's registry only binds mcp/'s command.",
      severity: "error",
      from: { path: "^client/(mcp|hook)/" },
      to: { path: "^client/cli/" },
    },
    {
      name: "child-process-only-in-platform",
      comment: "client/platform/git.ts is the one place that spawns git (with the safety settings).",
      severity: "error",
      from: { path: "^client/", pathNot: "^client/platform/" },
      to: { path: "^(node:)?child_process$" },
    },
    {
      name: "no-circular",
      comment: "No cycle at all in client/ and shared/, counting type-only and dynamic (lazy) imports.",
      severity: "error",
      from: { path: "^(client|shared)/" },
      to: { circular: true },
    },
    {
      name: "no-circular-at-load",
      comment: "The worker's bindings name its Durable Object classes by type, and they name the bindings: type-only, never a load-time cycle.",
      severity: "error",
      from: { path: "^worker/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
  },
};
