import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { READER_FILE, buildReader } from "../../scripts/build-reader.js";

// Every `wrangler dev` the tests start runs this build ([build] in wrangler.toml) and watches
// dist/public, restarting its worker on any write there. A rebuild that rewrote an unchanged
// reader restarted the servers of parallel test files mid-request (a 503 to a publish).
describe("the reader build", () => {
  it("leaves an unchanged dist/public/reader.js untouched, so running servers do not restart", async () => {
    const first = await buildReader();
    const before = statSync(READER_FILE, { bigint: true });
    const second = await buildReader();
    const after = statSync(READER_FILE, { bigint: true });
    expect(second).toBe(first);
    expect(after.mtimeNs).toBe(before.mtimeNs);
    expect(after.ino).toBe(before.ino);
  });
});
