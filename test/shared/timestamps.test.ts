import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ceTimestamp, checkRfc3339, isIsoUtc, kernelTimestamp, recordTimestamp, timestampMs } from "../../shared/time/timestamps.js";

const AT = new Date("2026-07-10T21:45:00.789Z");

describe("formatting, one precision per contract", () => {
  it("writes ce-handoff created_at to the millisecond, in UTC", () => {
    expect(ceTimestamp(AT)).toBe("2026-07-10T21:45:00.789Z");
    expect(isIsoUtc(ceTimestamp(AT))).toBe(true);
  });

  it("writes kernel timestamps to the second, as kernel's reference does", () => {
    expect(kernelTimestamp(AT)).toBe("2026-07-10T21:45:00Z");
    expect(kernelTimestamp(new Date("2026-07-10T21:45:00.000Z"))).toBe("2026-07-10T21:45:00Z");
    expect(checkRfc3339(kernelTimestamp(AT))).toBeUndefined();
  });

  it("writes published records to the millisecond, like the server's answers", () => {
    expect(recordTimestamp(AT)).toBe("2026-07-10T21:45:00.789Z");
  });

  it("keeps kernel timestamps in time order when compared as strings", () => {
    const times = [0, 999, 1000, 59_999, 86_400_000].map((ms) => kernelTimestamp(new Date(Date.UTC(2026, 6, 10) + ms)));
    expect([...times].sort()).toEqual(times);
  });
});

describe("checkRfc3339", () => {
  it.each([
    "2026-07-10T21:45:00Z",
    "2026-07-10T21:45:00.123456Z",
    "2026-07-10T23:45:00+02:00",
    "2026-07-10T16:15:00-05:30",
    "2024-02-29T00:00:00Z",
    "2000-02-29T00:00:00Z",
    "2016-12-31T23:59:60Z",
    "2017-01-01T00:59:60+01:00",
    "2016-12-31T18:59:60-05:00",
    "0000-01-01T00:00:00Z",
    "2026-07-10T21:45:00.123456789012Z",
  ])("accepts %s", (text) => expect(checkRfc3339(text)).toBeUndefined());

  it.each([
    ["2026-07-10T21:45:00", /with a time zone/],
    ["2026-07-10 21:45:00Z", /RFC 3339/],
    ["2026-07-10", /RFC 3339/],
    ["2026-07-10T21:45Z", /RFC 3339/],
    ["2026-7-10T21:45:00Z", /RFC 3339/],
    ["2026-07-10T21:45:00+0200", /RFC 3339/],
    ["2026-07-10T21:45:00.Z", /RFC 3339/],
    [" 2026-07-10T21:45:00Z", /RFC 3339/],
    ["2026-13-01T00:00:00Z", /not a calendar date/],
    ["2026-00-01T00:00:00Z", /not a calendar date/],
    ["2026-02-30T00:00:00Z", /not a calendar date/],
    ["2025-02-29T00:00:00Z", /not a calendar date/],
    ["1900-02-29T00:00:00Z", /not a calendar date/],
    ["2026-04-31T00:00:00Z", /not a calendar date/],
    ["2026-07-00T00:00:00Z", /not a calendar date/],
    ["2026-07-10T24:00:00Z", /not a time of day/],
    ["2026-07-10T23:60:00Z", /not a time of day/],
    ["2026-07-10T23:59:61Z", /not a time of day/],
    ["2026-07-10T23:59:59+24:00", /offset is out of range/],
    ["2026-07-10T23:59:59+02:60", /offset is out of range/],
    ["2026-07-10T23:59:59+00:99", /offset is out of range/],
    ["2026-07-10t21:45:00Z", /upper-case/],
    ["2026-07-10T21:45:00z", /upper-case/],
    ["2026-07-10T23:59:60Z", /leap second/],
    ["2016-12-31T22:59:60Z", /leap second/],
    ["2016-12-31T23:59:60+01:00", /leap second/],
  ])("rejects %s", (text, message) => expect(checkRfc3339(text)).toMatch(message));
});

describe("isIsoUtc (ce-handoff created_at)", () => {
  it.each([
    "2026-07-10T09:30:00Z",
    "2026-07-10T09:30:00.1Z",
    "2026-07-10T09:30:00.123Z",
    "2026-07-10T09:30:00.123456789Z",
    "2024-02-29T00:00:00Z",
    "2000-02-29T23:59:59Z",
    "0050-03-01T00:00:00Z",
    "0000-01-01T00:00:00Z",
  ])("accepts %s", (text) => expect(isIsoUtc(text)).toBe(true));

  it.each([
    ["an offset", "2026-07-10T11:30:00+02:00"],
    ["no zone", "2026-07-10T09:30:00"],
    ["lower-case t", "2026-07-10t09:30:00Z"],
    ["lower-case z", "2026-07-10T09:30:00z"],
    ["no seconds", "2026-07-10T09:30Z"],
    ["an empty fraction", "2026-07-10T09:30:00.Z"],
    ["ten fraction digits", "2026-07-10T09:30:00.1234567890Z"],
    ["Feb 30", "2026-02-30T09:30:00Z"],
    ["Feb 29 in a common year", "2025-02-29T09:30:00Z"],
    ["Feb 29 in 1900", "1900-02-29T09:30:00Z"],
    ["month 13", "2026-13-01T09:30:00Z"],
    ["day 0", "2026-07-00T09:30:00Z"],
    ["hour 24", "2026-07-10T24:00:00Z"],
    ["minute 60", "2026-07-10T09:60:00Z"],
    ["second 60, even at a leap second", "2016-12-31T23:59:60Z"],
    ["a date only", "2026-07-10"],
    ["surrounding space", " 2026-07-10T09:30:00Z"],
  ])("rejects %s: %s", (_what, text) => expect(isIsoUtc(text)).toBe(false));
});

describe("timestampMs (ordering and ages)", () => {
  // Every shape here is one Date.parse reads; timestampMs must give the same number, whether its
  // own digit reader (the common shape) or Date.parse (the rest) answers.
  it.each([
    "2026-07-10T21:45:00Z",
    "2026-07-10T21:45:00.000Z",
    "2026-07-10T21:45:00.7Z",
    "2026-07-10T21:45:00.78Z",
    "2026-07-10T21:45:00.789Z",
    "2026-07-10T21:45:00.789999999Z",
    "2026-07-10T21:45:00.123456789012Z",
    "2026-07-10T23:45:00+02:00",
    "2026-07-10T16:15:00.5-05:30",
    "2026-07-10T21:45:00-00:00",
    "2026-07-10T00:30:00+23:59",
    "2026-07-10T23:30:00-23:59",
    "2024-02-29T12:00:00Z",
    "2000-02-29T12:00:00Z",
    "1970-01-01T00:00:00Z",
    "1969-12-31T23:59:59.999Z",
    "1900-03-01T00:00:00Z",
    "0050-03-01T00:00:00Z",
    "0000-02-29T12:00:00-05:30",
    "9999-12-31T23:59:59.999Z",
    "+010000-01-01T00:00:00Z",
    "-000001-01-01T00:00:00Z",
    "2026-07-10t21:45:00z",
    "2026-07-10T21:45Z",
    "2026-07-10",
    "2026-07-10T24:00:00Z",
    "2026-02-30T00:00:00Z",
    "Fri, 10 Jul 2026 21:45:00 GMT",
    "July 10, 2026 21:45 UTC",
  ])("equals Date.parse for %s", (text) => {
    expect(Number.isNaN(Date.parse(text))).toBe(false);
    expect(timestampMs(text)).toBe(Date.parse(text));
  });

  it.each(["", "yesterday", "2026-07-10T21:45:00.Z", "2026-07-10T23:59:60Z", "2026-07-10T21:45:00+01:60", "2026-07-10T21:45:00+24:00", "2026-07-10T2a:45:00Z"])(
    "is undefined where Date.parse gives NaN: %j",
    (text) => {
      expect(Date.parse(text)).toBeNaN();
      expect(timestampMs(text)).toBeUndefined();
    },
  );

  it("equals Date.parse for any instant in the common shape, at any precision and offset", () => {
    // A day inside each end of four-digit years, so the wall time at any offset still has four.
    const instant = fc.integer({ min: Date.parse("0000-01-02T00:00:00Z"), max: Date.parse("9999-12-30T00:00:00Z") });
    const offset = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
    fc.assert(
      fc.property(instant, offset, fc.integer({ min: 0, max: 9 }), (ms, minutes, digits) => {
        // The local wall time at `minutes` east of UTC, written with that offset.
        const wall = new Date(ms + minutes * 60_000).toISOString();
        const fraction = digits === 0 ? "" : `.${(wall.slice(20, 23) + "123456").slice(0, digits)}`;
        const sign = minutes < 0 ? "-" : "+";
        const abs = Math.abs(minutes);
        const zone = minutes === 0 ? "Z" : `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
        const text = `${wall.slice(0, 19)}${fraction}${zone}`;
        expect(timestampMs(text)).toBe(Date.parse(text));
      }),
      { numRuns: 2000 },
    );
  });
});
