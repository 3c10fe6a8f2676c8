import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HandoffError } from "../../shared/errors.js";
import { ensureHandoffDir, ensureStoreDir, managedRoots, openManagedRoot, writeExclusive } from "../../client/lib/store.js";
import { tempDir } from "./git-repo.js";

const uid = process.getuid!();
const bytes = (text: string) => new TextEncoder().encode(text);
const NOBODY = 65534;

function refusal(fn: () => unknown): HandoffError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HandoffError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("managed roots", () => {
  it.each([
    [{}, ["/tmp/compound-engineering-1000"]],
    [{ TMPDIR: "/tmp/" }, ["/tmp/compound-engineering-1000"]],
    [{ TMPDIR: "/var/tmp" }, ["/tmp/compound-engineering-1000", "/var/tmp/compound-engineering-1000"]],
    [{ HANDOFF_ROOT: "/x/root", TMPDIR: "/var/tmp" }, ["/x/root"]],
  ])("%j", (env, roots) => {
    expect(managedRoots(env, 1000)).toEqual(roots);
  });
});

describe("root safety, checked on the opened directory", () => {
  it("creates a missing root 0700", () => {
    const root = join(tempDir(), "root");
    ensureStoreDir(root, uid);
    expect(statSync(root).mode & 0o777).toBe(0o700);
  });

  it("fixes a 0755 root we own to 0700 (the contract's chmod 700)", () => {
    const root = join(tempDir(), "root");
    mkdirSync(root, { mode: 0o755 });
    chmodSync(root, 0o755);
    ensureStoreDir(root, uid);
    expect(statSync(root).mode & 0o777).toBe(0o700);
  });

  it.each([
    [
      "a symlink to a directory we own",
      (root: string, base: string) => {
        mkdirSync(join(base, "real"), { mode: 0o700 });
        symlinkSync(join(base, "real"), root);
      },
      /is a symlink/,
    ],
    ["a dangling symlink", (root: string, base: string) => symlinkSync(join(base, "nowhere"), root), /is a symlink/],
    [
      "owned by another user",
      (root: string) => {
        mkdirSync(root, { mode: 0o700 });
        chownSync(root, NOBODY, NOBODY);
      },
      /owned by uid 65534, not by you/,
    ],
    ["a regular file", (root: string) => writeFileSync(root, "x"), /is not a directory/],
  ])("refuses a root that is %s", (_name, plant, message) => {
    const base = tempDir();
    const root = join(base, "root");
    plant(root, base);
    const error = refusal(() => ensureStoreDir(root, uid));
    expect(error.reason).toBe("unsafe_store");
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(/HANDOFF_ROOT/);
  });

  it("leaves a foreign root's mode alone", () => {
    const root = join(tempDir(), "root");
    mkdirSync(root);
    chmodSync(root, 0o755);
    chownSync(root, NOBODY, NOBODY);
    refusal(() => ensureStoreDir(root, uid));
    expect(statSync(root).mode & 0o777).toBe(0o755);
  });

  it("falls back to the second root and says why", () => {
    const base = tempDir();
    symlinkSync(base, join(base, "primary"));
    const { root, warnings } = openManagedRoot([join(base, "primary"), join(base, "fallback")], uid);
    expect(root).toBe(join(base, "fallback"));
    expect(warnings).toEqual([`using the fallback store ${join(base, "fallback")}: unsafe managed store: ${join(base, "primary")} is a symlink`]);
  });

  it("refuses when no root can be made safe", () => {
    const base = tempDir();
    symlinkSync(base, join(base, "only"));
    expect(refusal(() => openManagedRoot([join(base, "only")], uid)).reason).toBe("unsafe_store");
  });

  it("checks the store folders below the root too", () => {
    const root = tempDir();
    symlinkSync(tempDir(), join(root, "ce-handoff"));
    expect(refusal(() => ensureHandoffDir(root, "general", uid)).message).toMatch(/ce-handoff is a symlink/);
  });

  it("makes ce-handoff/<namespace> 0700", () => {
    const root = tempDir();
    const dir = ensureHandoffDir(root, "demo-0123456789ab", uid);
    expect(dir).toBe(join(root, "ce-handoff", "demo-0123456789ab"));
    expect(statSync(join(root, "ce-handoff")).mode & 0o777).toBe(0o700);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});

describe("exclusive reservation", () => {
  it("writes 0600 and never overwrites: smallest free suffix", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "plan-3.md"), "someone else's");
    const paths = [1, 2, 3].map((i) => writeExclusive(dir, "plan", ".md", bytes(`v${i}`)).path);
    expect(paths).toEqual([join(dir, "plan.md"), join(dir, "plan-2.md"), join(dir, "plan-4.md")]);
    expect(readFileSync(join(dir, "plan-3.md"), "utf8")).toBe("someone else's");
    expect(statSync(join(dir, "plan.md")).mode & 0o777).toBe(0o600);
  });

  it("skips a symlink planted at the target name and never follows it", () => {
    const dir = tempDir();
    const victim = join(tempDir(), "victim.txt");
    writeFileSync(victim, "untouched");
    symlinkSync(victim, join(dir, "plan.md"));
    symlinkSync(join(dir, "missing-target"), join(dir, "plan-2.md"));
    const { path, takenName } = writeExclusive(dir, "plan", ".md", bytes("mine"));
    expect(path).toBe(join(dir, "plan-3.md"));
    expect(takenName).toBe(join(dir, "plan.md"));
    expect(readFileSync(victim, "utf8")).toBe("untouched");
    expect(lstatSync(join(dir, "plan-2.md")).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["plan-2.md", "plan-3.md", "plan.md"]);
  });
});
