import { describe, expect, it } from "vitest";
import { parseSource } from "../../../shared/orient/source.js";
import { judgeSource } from "../../../shared/orient/sufficiency.js";
import { LARGE_BODIES, MIB } from "./large-bodies.js";

/**
 * Bodies of 1 MiB, ordinary and hostile, read through. Nothing here is timed (the machine is
 * shared); a matcher that backtracks quadratically on one of them takes minutes, and the
 * timeout turns that into a failure. bench/orient.bench.js measures the cost as ratios.
 */
describe("sufficiency on 1 MiB bodies", () => {
  it.each(LARGE_BODIES)(
    "$name",
    ({ body, verdict }) => {
      expect(body.length).toBeGreaterThanOrEqual(MIB);
      const { orientation, sufficiency } = judgeSource(parseSource(body));
      expect(sufficiency.verdict).toBe(verdict);
      // What it yields stays bounded, whatever it read.
      expect(orientation.objective?.length ?? 0).toBeLessThanOrEqual(2000);
      expect(orientation.current_state?.length ?? 0).toBeLessThanOrEqual(2000);
      expect(orientation.progress.length + orientation.unfinished.length).toBeLessThanOrEqual(100);
    },
    60_000,
  );
});
