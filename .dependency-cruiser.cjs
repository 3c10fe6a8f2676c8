/**
 * The layers, checked by `npm run lint` (part of `npm test`); docs/architecture.md says why.
 * client/: cli/, mcp/, hook/ (front ends) -> commands/ -> ops/ -> lib/ -> platform/ -> shared/.
 * Imports only point down; type-only and dynamic imports count like any other.
 */
/** The client's layers, top to bottom, with what each one may not reach: every layer above it. */
const LAYERS = [
  { name: "front-ends", folders: "cli|mcp|hook" },
  { name: "commands", folders: "commands", why: "a command adapts flags to one operation; it knows no front end" },
  { name: "ops", folders: "ops", why: "an operation returns values and never prints; it knows no flags and no front end" },
  { name: "lib", folders: "lib", why: "lib/ holds what two or more tasks share; it never reaches up into a task, a command or a front end" },
  { name: "platform", folders: "platform", why: "platform/ wraps the OS (fs, paths, git, http, terminal, process): it knows no handoff concept" },
];

/** One rule per layer below the front ends: no import points up. */
function layerRules() {
  return LAYERS.slice(1).map((layer, i) => ({
    name: `${layer.name}-imports-only-down`,
    comment: layer.why,
    severity: "error",
    from: { path: `^client/(${layer.folders})/` },
    to: { path: `^client/(${LAYERS.slice(0, i + 1).map((above) => above.folders).join("|")})/` },
  }));
}
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
    ...layerRules(),
    {
      name: "no-op-imports-another",
      comment: "Each ops/<task>/ is one user task; what two tasks share moves down to lib/.",
      severity: "error",
      from: { path: "^client/ops/([^/]+)/" },
      to: { path: "^client/ops/", pathNot: "^client/ops/$1/" },
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
      comment: "The MCP server and the hook never import the CLI; the CLI's registry only binds mcp/'s and hook/'s commands.",
      severity: "error",
      from: { path: "^client/(mcp|hook)/" },
      to: { path: "^client/cli/" },
    },
    {
      name: "child-process-only-in-platform",
      comment:
        "client/platform/git.ts is the one place that spawns git (with the safety settings), and nothing else spawns.",
      severity: "error",
      from: { path: "^client/", pathNot: "^client/platform/git\\.ts$" },
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
