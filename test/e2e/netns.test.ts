import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalServer } from "../../scripts/local-server.js";
import { tempDir } from "../client/git-repo.js";
import { ensureBuilt } from "../helpers/cli.js";
import { type Host, json, makeHost, makeSharedRepo, startServer } from "./hosts.js";
import { type Namespace, createNamespace, netnsAvailable } from "./netns.js";

// Host B in its own network namespace: it shares no loopback with A or the server, and reaches
// the server only across a veth pair. Skipped where `ip netns` is not allowed (not root, or a
// sandbox without the capability).

const available = netnsAvailable();

describe.skipIf(!available)("host B in its own network namespace", () => {
  let server: LocalServer | undefined;
  let ns: Namespace | undefined;
  let a: Host;
  let b: Host;

  beforeAll(async () => {
    const base = tempDir("handoff-e2e-netns-");
    await ensureBuilt();
    server = await startServer(join(base, "server-state"));
    ns = await createNamespace();
    const repos = makeSharedRepo(base, ["a", "b"], { "README.md": "# Net\n" });
    a = makeHost(base, "a", repos.a!, { HANDOFF_SERVER: server.url });
    b = makeHost(base, "b", repos.b!);
  });

  afterAll(async () => {
    await ns?.remove();
    await server?.stop();
  });

  it("B cannot see the server until the veth path is up, then resumes byte for byte", async () => {
    const body = "# Tune the pool\n\n## Current state\nPool size is 8; p99 is still high.\n\n## Next steps\n- try 16 and compare p99\n";
    const created = await a.run(["create", "--publish", "--max-views", "1", "--json"], { input: body });
    expect(created.code, created.stderr).toBe(0);
    const { url, path } = json<{ url: string; path: string }>(created);

    // Isolation is real: the namespace's 127.0.0.1 is not this host's.
    const blind = await ns!.run(["resume", url, "--peek"], { cwd: b.repo, env: b.env });
    expect(blind.code).toBe(3);
    expect(blind.stderr).toMatch(/connection refused/);

    await ns!.forward(server!.port);
    const resumed = await ns!.run(["resume", url, "--json"], { cwd: b.repo, env: b.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const orientation = json<{ body: string }>(resumed);
    expect(readFileSync(path, "utf8").endsWith(orientation.body)).toBe(true);
    expect(orientation.body).toContain("try 16 and compare p99");

    // The copy B's resume kept is all that is left of the one-view link: removed, the link is used up.
    const kept = json<{ local_copy: { path: string } }>(resumed).local_copy.path;
    expect((await ns!.run(["rm", kept], { cwd: b.repo, env: b.env })).code).toBe(0);
    const again = await ns!.run(["resume", url], { cwd: b.repo, env: b.env });
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/used up/);
  });
});
