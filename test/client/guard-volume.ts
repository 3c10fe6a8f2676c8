import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestRunner } from "vitest";

/**
 * A case-insensitive volume for the guard's tests, the best this machine allows:
 *   1. a real one: a small ext4 image with casefold (`mkfs.ext4 -O casefold`, `chattr +F`), or a
 *      FAT image (`mkfs.vfat`), loop-mounted, where the kernel supports it;
 *   2. else one simulated by bind mounts: a repository whose other spellings (`.GIT`, `SECRETS`,
 *      `Key.PEM`, ...) are bind mounts of the real entries, so they open the same files, as on
 *      macOS or Windows. The guard's detection (stat a case-swapped name of a known entry) sees
 *      the same thing it sees there;
 *   3. else none: each test skips, with the reason (mounting needs root and CAP_SYS_ADMIN).
 * `root()` is the folder to put the repository in (created lazily, once); `release()` unmounts
 * everything and removes the folder.
 */
export function caseInsensitiveVolume(folder: string): { root(): string | undefined; aliases(repo: string, names: [string, string][]): void; release(): void } {
  const mounts: string[] = [];
  let made: { root?: string; kind?: string; reason?: string } | undefined;
  const mount = (args: string[]) => execFileSync("mount", args, { stdio: "pipe" });
  const make = (): { root?: string; kind?: string; reason?: string } => {
    mkdirSync(folder, { recursive: true });
    if (process.getuid?.() !== 0) return { reason: "mounting a volume needs root" };
    const image = join(folder, "volume.img");
    const point = join(folder, "mnt");
    mkdirSync(point);
    for (const [kind, format] of [
      ["ext4 casefold", () => execFileSync("mkfs.ext4", ["-q", "-O", "casefold", "-E", "encoding=utf8", image], { stdio: "pipe" })],
      ["vfat", () => execFileSync("mkfs.vfat", [image], { stdio: "pipe" })],
    ] as const) {
      try {
        if (kind === "ext4 casefold" && !existsSync("/sys/fs/ext4/features/casefold")) continue;
        if (kind === "vfat" && !readFileSync("/proc/filesystems", "utf8").includes("vfat")) continue;
        writeFileSync(image, Buffer.alloc(0));
        truncateSync(image, 32 * 1024 * 1024);
        format();
        mount(["-o", "loop", image, point]);
        mounts.push(point);
        const root = join(point, "repo");
        mkdirSync(root);
        if (kind === "ext4 casefold") execFileSync("chattr", ["+F", root]);
        return { root, kind };
      } catch {
        while (mounts.length > 0) tryUnmount(mounts.pop()!);
      }
    }
    try {
      // Bind mounts are allowed here when a trial one works.
      mkdirSync(join(folder, "trial"));
      mount(["--bind", join(folder, "trial"), join(folder, "trial")]);
      tryUnmount(join(folder, "trial"));
      const root = join(folder, "repo");
      mkdirSync(root);
      return { root, kind: "bind mounts" };
    } catch (cause) {
      return { reason: `no case-insensitive volume here: no casefold ext4 or vfat in this kernel, and bind mounts are not allowed (${(cause as Error).message.split("\n")[0]})` };
    }
  };
  return {
    root() {
      made ??= make();
      if (made.root) return made.root;
      TestRunner.getCurrentTest()?.context.skip(`case-insensitive volume: ${made.reason}`);
      return undefined;
    },
    /** On the simulated volume, each [alias, real] spelling is made to open the real entry (a real volume needs none). */
    aliases(repo, names) {
      if (made?.kind !== "bind mounts") return;
      for (const [alias, real] of names) {
        const target = join(repo, alias);
        if (statSync(join(repo, real)).isDirectory()) mkdirSync(target);
        else writeFileSync(target, "");
        mount(["--bind", join(repo, real), target]);
        mounts.push(target);
      }
    },
    release() {
      while (mounts.length > 0) tryUnmount(mounts.pop()!);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

function tryUnmount(point: string): void {
  try {
    execFileSync("umount", [point], { stdio: "pipe" });
  } catch {
    try {
      execFileSync("umount", ["-l", point], { stdio: "pipe" });
    } catch {
      // Nothing mounted there.
    }
  }
}
