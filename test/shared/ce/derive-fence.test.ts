import { describe, expect, it } from "vitest";
import { deriveSummary, deriveTitle } from "../../../shared/ce/derive.js";

// Titles and summaries skip fenced code, read by the one fence reader (shared/text/markdown.ts).

describe("derivation skips fenced code", () => {
  it("a ``` line inside a ~~~ fence does not close it", () => {
    const body = "~~~\n```\n# not a title\n~~~\n\n# Real title\n\nThe real summary.\n";
    expect(deriveTitle(body)).toBe("Real title");
    expect(deriveSummary(body)).toBe("The real summary.");
  });

  it("a shorter closing fence does not close a longer one", () => {
    expect(deriveTitle("````\n```\n# code\n````\n# After\n")).toBe("After");
  });
});
