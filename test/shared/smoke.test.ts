import { expect, it } from "vitest";
it("runs node tests", () => { expect(1 + 1).toBe(2); });
