import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { redactText } from "../../../shared/redact/index.js";
import { BASE64, HEX, seeded } from "../../fixtures/redact/samples.js";

const fixtureDir = new URL("../../fixtures/redact/", import.meta.url);
const fixtures = readdirSync(fixtureDir).filter((name) => /\.(md|json)$/.test(name));

/** High-entropy strings a handoff is full of, none of them a secret. */
function mustSurvive(seed: number): { kind: string; text: string }[] {
  const r = seeded(seed);
  const rows: { kind: string; text: string }[] = [];
  const add = (kind: string, text: string) => rows.push({ kind, text });
  for (let i = 0; i < 40; i++) {
    const sha = r.chars(40, HEX);
    add("full commit sha", `commit ${sha}`);
    add("short commit sha", `fixed in ${sha.slice(0, 7)} and ${sha.slice(0, 12)}`);
    add("sha256 digest", `"sha256": "${r.chars(64, HEX)}"`);
    add("docker digest", `image: ghcr.io/org/app@sha256:${r.chars(64, HEX)}`);
    add("uuid", `id ${r.chars(8, HEX)}-${r.chars(4, HEX)}-4${r.chars(3, HEX)}-a${r.chars(3, HEX)}-${r.chars(12, HEX)}`);
    add("npm integrity", `"integrity": "sha512-${r.chars(86, BASE64)}=="`);
    add("base64 in a code block", '```\nconst blob = "' + r.chars(120, BASE64) + '=";\n```');
    add("share url id", `https://handoff.test/h/${r.chars(22, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")}`);
    add("iso timestamp", `2026-0${1 + r.int(9)}-1${r.int(9)}T${10 + r.int(13)}:${10 + r.int(49)}:${10 + r.int(49)}.${r.chars(3, "0123456789")}Z`);
    add("hex colour", `color: #${r.chars(6, HEX)}; background: #${r.chars(3, HEX)};`);
    add("version", `v${r.int(30)}.${r.int(30)}.${r.int(300)}-beta.${r.int(9)}+build.${r.chars(7, HEX)}`);
    add("long path", `/home/dev/src/${Array.from({ length: 12 }, () => r.chars(10, "abcdefghijklmnopqrstuvwxyz-_")).join("/")}.ts`);
    add(
      "secrets manager arn",
      `SecretId: arn:aws:secretsmanager:${["us-east-1", "eu-west-1", "ap-south-1"][r.int(3)]}:${r.chars(12, "0123456789")}:secret:prod/${r.chars(6, "abcdefghij")}/password-${r.chars(6, BASE64.slice(0, 62))}`,
    );
    add(
      "strategy name",
      `${["AUTH_STRATEGY", "TOKEN_STRATEGY", "auth_strategy", "SECRET_BACKEND"][r.int(4)]}=${["Jwt", "OAuth", "Saml", "Hmac"][r.int(4)]}${["Bearer", "Session", "Cookie"][r.int(3)]}StrategyV${1 + r.int(9)}`,
    );
    add("sha512 integrity", `  integrity sha512-${r.chars(86, BASE64)}==`);
    add("data uri", `<img alt="logo" src="data:image/png;base64,${r.chars(160 + r.int(200), BASE64)}=">`);
    add("port mapping", `docker run -d -p ${1024 + r.int(60000)}:${1 + r.int(9000)} -p 127.0.0.1:${1024 + r.int(60000)}:5432 -u ${r.int(2000)}:${r.int(2000)} img:${r.int(20)}`);
    add("compose ports", `ports:\n  - "${1024 + r.int(60000)}:${1 + r.int(9000)}"\n  - "0.0.0.0:${1024 + r.int(60000)}:443"`);
    add("long identifier", `export const ${Array.from({ length: 8 }, () => r.chars(7, "abcdefghijklmnopqrstuvwxyz")).join("_")}ForTheTokenCache = 1;`);
  }
  return rows;
}

describe("the must-survive corpus has zero findings", () => {
  it.each(fixtures)("fixture %s", (name) => {
    const text = readFileSync(new URL(name, fixtureDir), "utf8");
    const result = redactText(text);
    expect(result.findings).toEqual([]);
    expect(result.text).toBe(text);
  });

  it.each([1, 2, 3])("generated rows, seed %i", (seed) => {
    const rows = mustSurvive(seed);
    const flagged = rows.filter((row) => redactText(row.text).findings.length > 0);
    expect(flagged).toEqual([]);
  });

  it("the whole corpus as one body", () => {
    const body = [...fixtures.map((name) => readFileSync(new URL(name, fixtureDir), "utf8")), ...mustSurvive(4).map((row) => row.text)].join("\n\n");
    expect(redactText(body).counts).toEqual({});
  });
});
