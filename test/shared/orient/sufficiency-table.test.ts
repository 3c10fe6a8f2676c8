import { describe, expect, it } from "vitest";
import { parseSource } from "../../../shared/orient/source.js";
import { judgeSource } from "../../../shared/orient/sufficiency.js";
import { SUFFICIENCY_TABLE } from "./sufficiency-table.js";

describe("sufficiency by content: the table", () => {
  it.each(SUFFICIENCY_TABLE)("$verdict: $name ($style)", ({ body, verdict, objective, state, progress, unfinished }) => {
    // The document exactly as resume reads a pasted or saved body.
    const { orientation, sufficiency } = judgeSource(parseSource(body));
    expect({ verdict: sufficiency.verdict, objective: orientation.objective, state: orientation.current_state }).toEqual({ verdict, objective, state });
    if (progress) expect(orientation.progress).toEqual(progress);
    if (unfinished) expect(orientation.unfinished).toEqual(unfinished);
  });

  it("holds at least 30 bodies, each verdict among them", () => {
    expect(SUFFICIENCY_TABLE.length).toBeGreaterThanOrEqual(30);
    for (const verdict of ["sufficient", "unsure", "insufficient"]) expect(SUFFICIENCY_TABLE.filter((row) => row.verdict === verdict).length).toBeGreaterThanOrEqual(5);
  });
});
