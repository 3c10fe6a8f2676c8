import { describe, expect, it } from "vitest";
import { kernelCheckpointSchema } from "../../../shared/kernel/checkpoint-schema.js";
import { contextReceiptSchema } from "../../../shared/kernel/receipt-schema.js";
import { kernelSchemas } from "../../../shared/kernel/schema.js";
import { fixtureText } from "./fixtures.js";
import { schemaDifferences } from "./schema-equivalence.js";

describe("zod schemas equal the public JSON Schemas in meaning", () => {
  it.each([
    ["kernel.handoff.v1.schema.json", kernelSchemas().kernelHandoffSchema, []],
    ["kernel.context-receipt.v1.schema.json", contextReceiptSchema(), []],
    ["kernel.checkpoint.v1.schema.json", kernelCheckpointSchema(), []],
  ] as const)("%s", (file, schema, extra) => {
    expect(schemaDifferences(schema, JSON.parse(fixtureText(file)), [...extra])).toEqual([]);
  });

  it("the comparison itself notices a difference", () => {
    const spec = JSON.parse(fixtureText("kernel.handoff.v1.schema.json"));
    spec.required.push("extra");
    spec.properties.identity.properties.tier.maximum = 4;
    spec.properties.context.properties.policy.properties.mode.enum.pop();
    expect(schemaDifferences(kernelSchemas().kernelHandoffSchema, spec, [])).toEqual([
      expect.stringMatching(/^: required/),
      "identity.tier: maximum 3 vs 4",
      expect.stringMatching(/^context.policy.mode: enum/),
    ]);
  });
});
