import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { TOOLS } from "../../client/mcp/tools.js";

// docs/agents.md's MCP tool reference is generated from the tool definitions (client/mcp/tools.ts),
// as docs/cli.md's flag tables are from the command declarations: names, descriptions, arguments
// (the JSON Schema the SDK shows clients) and annotations. After changing a tool, run
// UPDATE_DOCS=1 npx vitest run --project node test/client/mcp-docs.test.ts
const docsPath = new URL("../../docs/agents.md", import.meta.url);
const OPEN = "<!-- mcp-tools: generated from client/mcp/tools.ts by test/client/mcp-docs.test.ts -->";
const CLOSE = "<!-- /mcp-tools -->";

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Text in a table cell or paragraph: a `|` would end the cell and a `<id>` would read as an HTML tag. */
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("<", "\\<").replaceAll("\n", " ");

/** zod's integer bounds when none was given: not worth a word. */
const isSafeBound = (n: number | undefined) => n === undefined || Math.abs(n) === Number.MAX_SAFE_INTEGER;

/** An argument's type in a few words: `ce` \| `kernel`, integer 1 to 100, string[] (at most 1000). */
function typeWords(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => `\`${String(value)}\``).join(" | ");
  if (schema.type === "array") {
    const items = schema.items ?? {};
    const of = items.type === "object" ? `[{${Object.keys(items.properties ?? {}).join(", ")}}]` : `${typeWords(items)}[]`;
    return schema.maxItems === undefined ? of : `${of} (at most ${schema.maxItems})`;
  }
  if (schema.type === "integer" && !(isSafeBound(schema.minimum) && isSafeBound(schema.maximum))) return `integer, ${schema.minimum} to ${schema.maximum}`;
  if (schema.type === "string" && schema.minLength === 1) return "non-empty string";
  return schema.type ?? "any";
}

/** One tool: its name and title, description, an argument table, and its annotations as MCP names them. */
function toolSection(tool: (typeof TOOLS)[number]): string {
  const schema = z.toJSONSchema(z.object(tool.inputSchema)) as JsonSchema;
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(
    ([name, property]) => `| \`${name}\` | ${cell(typeWords(property))}${required.has(name) ? ", required" : ""} | ${cell(property.description ?? "")} |`,
  );
  const hints = Object.entries(tool.annotations).map(([hint, value]) => `\`${hint}: ${value}\``);
  return [`**\`${tool.name}\`**: ${tool.title}. ${cell(tool.description)}`, "", "| argument | type | what |", "| --- | --- | --- |", ...rows, "", `Annotations: ${hints.join(", ")}.`].join("\n");
}

/** `docs` with the text between the markers replaced by every tool's section, in TOOLS order. */
function withToolReference(docs: string): string {
  const start = docs.indexOf(OPEN);
  const end = docs.indexOf(CLOSE);
  if (start === -1 || end < start) throw new Error(`docs/agents.md lost its markers ${OPEN} … ${CLOSE}`);
  return `${docs.slice(0, start)}${OPEN}\n${TOOLS.map(toolSection).join("\n\n")}\n${docs.slice(end)}`;
}

describe("docs/agents.md", () => {
  it("holds every MCP tool exactly as generated from its definition", () => {
    const docs = readFileSync(docsPath, "utf8");
    const expected = withToolReference(docs);
    if (process.env.UPDATE_DOCS === "1") writeFileSync(docsPath, expected);
    expect(docs, "the MCP tool reference is stale: UPDATE_DOCS=1 npx vitest run --project node test/client/mcp-docs.test.ts").toBe(expected);
  });

  it("names each argument with the type and bounds a client sees", () => {
    const create = toolSection(TOOLS.find((tool) => tool.name === "create")!);
    expect(create).toContain("| `body` | non-empty string, required | The handoff body");
    expect(create).toContain("| `format` | `ce` \\| `kernel` |");
    expect(create).toContain("| `pins` | string[] (at most 1000) |");
    const checkpoint = toolSection(TOOLS.find((tool) => tool.name === "checkpoint")!);
    expect(checkpoint).toContain("| `done` | [{step, evidence}] (at most 1000) |");
    expect(toolSection(TOOLS.find((tool) => tool.name === "discover")!)).toContain("| `limit` | integer, 1 to 100 |");
  });
});
