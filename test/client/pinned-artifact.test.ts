import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hashPinnedFile, PINNED_FILE_LIMIT } from "../../client/lib/pinned-artifact.js";
import { tempDir } from "./git-repo.js";

// One hasher for what create --pin records and what resume re-checks, under one limit.
describe("the pinned-artifact hasher", () => {
  it("hashes a file's bytes as kernel records them", () => {
    const path = join(tempDir(), "plan.md");
    writeFileSync(path, "abc");
    expect(hashPinnedFile(path, { what: "--pin" })).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("is 64 MiB, and a file one byte over it is too large (a sparse file: nothing is read)", () => {
    expect(PINNED_FILE_LIMIT).toBe(64 * 1024 * 1024);
    const path = join(tempDir(), "big.bin");
    writeFileSync(path, "");
    truncateSync(path, PINNED_FILE_LIMIT + 1);
    expect(hashPinnedFile(path, { what: "--pin" })).toBe("too_large");
  });
});
