/**
 * The layers, checked by `npm run lint` (part of `npm test`); docs/architecture.md says why.
 * client/: cli/, mcp/, hook/ (front ends) -> commands/ -> ops/ -> lib/ -> platform/ -> shared/.
 * worker/: index.ts -> app.ts (routes), sweep.ts -> handlers/ -> http/, page/ -> durable/ -> storage/.
 * Imports only point down; type-only and dynamic imports count like any other.
 * test/client/layer-rules.test.ts plants a violation of each worker and folder rule and checks it fails.
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

/**
 * The worker's layers, top to bottom, as path patterns under worker/ (a folder ends in "/", a file
 * in "$"). bindings.ts and config.ts (the env and its parsed limits) sit with the request plumbing:
 * a handler and a middleware read them, a Durable Object and a storage module never do.
 */
const WORKER_LAYERS = [
  { name: "worker-entry", paths: ["index\\.ts$", "env\\.d\\.ts$", "bench/"] },
  { name: "worker-routes", paths: ["app\\.ts$", "sweep\\.ts$"], why: "app.ts routes requests and sweep.ts the cron: only the entry (index.ts) reaches them" },
  { name: "worker-handlers", paths: ["handlers/"], why: "a handler answers one route: only the routes reach it, and it never reaches them or the entry" },
  {
    name: "worker-http",
    paths: ["http/", "page/", "bindings\\.ts$", "config\\.ts$"],
    why: "http/ (auth, bodies, errors, limits), page/ and the env serve the handlers: they know no handler or route",
  },
  {
    name: "worker-durable",
    paths: ["durable/"],
    why: "a Durable Object decides for one handoff, credential or team: it knows no request and no bindings.ts (which names it; its env is Cloudflare.Env)",
  },
  { name: "worker-storage", paths: ["storage/"], why: "storage/ is one module per binding role and the formats stored: it imports nothing else of the worker" },
];
const workerPaths = (layers) => `^worker/(${layers.flatMap((layer) => layer.paths).join("|")})`;

/** One rule per worker layer below the entry: no import points up. */
function workerLayerRules() {
  return WORKER_LAYERS.slice(1).map((layer, i) => ({
    name: `${layer.name}-imports-only-down`,
    comment: layer.why,
    severity: "error",
    from: { path: workerPaths([layer]) },
    to: { path: workerPaths(WORKER_LAYERS.slice(0, i + 1)) },
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
    {
      name: "worker-files-live-in-a-layer",
      comment: "Every worker file is in one of the worker's layers (WORKER_LAYERS): a new folder or loose file gets its place there first.",
      severity: "error",
      from: { path: "^worker/", pathNot: workerPaths(WORKER_LAYERS) },
      to: {},
    },
    ...layerRules(),
    ...workerLayerRules(),
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
      comment: "No cycle at all in client/, shared/ and worker/, counting type-only and dynamic (lazy) imports.",
      severity: "error",
      from: { path: "^(client|shared|worker)/" },
      to: { circular: true },
    },
    {
      name: "no-folder-cycle",
      comment:
        "No two folders import each other, even through different files (shared/api and shared/crypto did): a concept both need lives in the lower one.",
      severity: "error",
      scope: "folder",
      from: { path: "^(client|shared|worker)/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
  },
};
