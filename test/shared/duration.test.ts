import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "../../shared/time/duration.js";

describe("parseDuration", () => {
  it.each([
    ["90s", 90],
    ["30m", 1800],
    ["12h", 43_200],
    ["7d", 604_800],
    ["1w", 604_800],
    ["3600", 3600],
    ["1", 1],
    ["1d12h", 129_600],
    ["1h 30m", 5400],
    ["2w 3d 4h 5m 6s", 1_483_506],
    [" 7D ", 604_800],
    ["007m", 420],
  ])("%s -> %i", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each([
    ["", /is not a duration/],
    ["7x", /is not a duration/],
    ["d7", /is not a duration/],
    ["1.5h", /is not a duration/],
    ["-5m", /is not a duration/],
    ["12 hours", /is not a duration/],
    ["1h 30", /is not a duration/],
    ["30m1h", /out of order/],
    ["1h1h", /repeats a unit/],
    ["0", /is zero/],
    ["0m", /is zero/],
    ["99999999999999999999", /is too long/],
    ["9999999999999999w", /is too long/],
  ])("%s", (text, message) => {
    expect(() => parseDuration(text)).toThrow(expect.objectContaining({ reason: "invalid_option", message: expect.stringMatching(message) }));
    expect(() => parseDuration(text)).toThrow(expect.objectContaining({ message: expect.stringMatching(/^--expires: /) }));
  });

  it("names the flag it was given", () => {
    expect(() => parseDuration("soon", "--ttl")).toThrow(expect.objectContaining({ message: "--ttl: 'soon' is not a duration", hint: expect.stringContaining("--ttl 30m") }));
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [59, "59s"],
    [90, "1m 30s"],
    [3600, "1h"],
    [5400, "1h 30m"],
    [86_400, "1d"],
    [604_800, "1w"],
    [1_209_600, "2w"],
    [1_483_506, "2w 3d 4h 5m 6s"],
  ])("%i -> %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2])("refuses %s", (seconds) => {
    expect(() => formatDuration(seconds)).toThrow(expect.objectContaining({ reason: "internal" }));
  });

  it("parseDuration reads back whatever formatDuration writes", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 * 365 * 86_400 }), (seconds) => parseDuration(formatDuration(seconds)) === seconds));
  });
});
