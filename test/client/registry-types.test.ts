import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../client/cli/registry.js";
import { bind } from "../../client/commands/command.js";
import { createSpec } from "../../client/commands/create/spec.js";
import { listSpec } from "../../client/commands/list/spec.js";

// The registry's binds are checked by the compiler: a copy-pasted loader that brings another
// command's run.ts does not typecheck (`npm run typecheck` covers this file).

describe("the registry", () => {
  it("binds each declaration to its own implementation, checked by tsc", () => {

    // @ts-expect-error: list's implementation is not create's.
    const miswired = bind(createSpec, () => import("../../client/commands/list/run.js"));
    const wired = bind(listSpec, () => import("../../client/commands/list/run.js"));
    expect([miswired.spec.name, wired.spec.name]).toEqual(["create", "list"]);
  });

  it("lists every command once", () => {
    const names = COMMANDS.map((c) => c.spec.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
