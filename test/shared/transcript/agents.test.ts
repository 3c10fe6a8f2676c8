import { describe, expect, it } from "vitest";
import { TranscriptDrafter } from "../../../shared/transcript/drafter.js";
import { GeminiSession, geminiRecord } from "../../../shared/transcript/gemini.js";
import { readTranscriptLine } from "../../../shared/transcript/line.js";
import { draftBody, draftSummary } from "../../../shared/transcript/render.js";
import { cursorTranscript, vscodeTranscript } from "../../helpers/agent-transcripts.js";
import { gemini } from "../../helpers/transcripts.js";

// The transcript dialects beside Claude Code's and Codex's: Cursor's (undocumented, read
// defensively), VS Code's agent transcript, and Gemini CLI's chat file with its checkpoints.
// Each fixture is built from the format as its source writes it (test/helpers/agent-transcripts.ts).

const draftOf = (lines: string[]) => {
  const drafter = new TranscriptDrafter();
  for (const line of lines) drafter.push(line);
  return drafter.draft();
};

describe("Cursor's agent transcript", () => {
  const c = cursorTranscript();
  const lines = [
    c.attached("src/cart.ts"),
    c.user("Make the cart total include tax"),
    c.assistant("Adding tax to the total.", [c.strReplace("/home/dev/app/src/cart.ts"), c.shell("npm test")]),
    c.assistant("", [c.write("/home/dev/app/src/tax.ts")]),
    c.user("continue"),
    c.assistant("Tax is added; rounding is still off by a cent."),
  ];

  it("the person's words are the <user_query>; what Cursor attaches around them is its own", () => {
    const draft = draftOf(lines);
    expect(draft.format).toBe("cursor");
    expect(draft.task?.text).toBe("Make the cart total include tax");
    expect(draft.latest.map((r) => r.text)).toEqual(["continue", "Make the cart total include tax"]);
    expect(draft.counts.injected).toBe(1);
    expect(JSON.stringify(draft)).not.toContain("<timestamp>");
    expect(draft.status?.text).toBe("Tax is added; rounding is still off by a cent.");
  });

  it("Write and StrReplace name the files changed; a command is never listed as failed (Cursor links no result to it)", () => {
    const draft = draftOf(lines);
    expect(draft.edited).toEqual(["/home/dev/app/src/cart.ts", "/home/dev/app/src/tax.ts"]);
    expect(draft.failed).toEqual([]);
    const body = draftBody(draft, { roots: ["/home/dev/app"] });
    expect(body).toContain("Drafted from the session's Cursor agent transcript");
    expect(body).toContain("- `src/tax.ts`");
  });

  it("read defensively: unknown blocks, a string content, a torn or foreign line are skipped and counted, never fatal", () => {
    const drafter = new TranscriptDrafter();
    for (const line of [
      JSON.stringify({ role: "user", message: { content: "<user_query>\nship it\n</user_query>" } }),
      JSON.stringify({
        role: "assistant",
        message: {
          content: [
            { type: "thinking", thinking: "hm" },
            { type: "image", data: "x" },
          ],
        },
      }),
      JSON.stringify({ role: "assistant", message: { content: 7 } }),
      JSON.stringify({ role: "system", message: { content: [] } }),
      "{torn",
    ])
      drafter.push(line);
    const draft = drafter.draft();
    expect(draft.task?.text).toBe("ship it");
    expect(draft.counts).toMatchObject({ lines: 5, used: 1, skipped: 1, malformed: 3 });
  });

  it("a turn with an empty query is Cursor's, not the person's", () => {
    expect(readTranscriptLine(JSON.stringify({ role: "user", message: { content: [{ type: "text", text: "<user_query>\n</user_query>" }] } }))).toMatchObject({
      events: [{ kind: "meta" }, { kind: "said", voice: { kind: "injected", what: "cursor-context" } }],
    });
  });
});

describe("VS Code's agent transcript", () => {
  const v = vscodeTranscript({ sessionId: "v1", cwd: "/home/dev/app" });
  const lines = [
    v.start(),
    v.user("Make the cart total include tax"),
    v.turnStart("0.0"),
    v.assistant("I'll add tax and run the tests.", [{ toolCallId: "call_1", name: "replace_string_in_file", arguments: '{"filePath":"/home/dev/app/src/cart.ts"}' }]),
    v.toolStart("call_1", "replace_string_in_file", { filePath: "/home/dev/app/src/cart.ts", oldString: "a", newString: "b" }),
    v.toolComplete("call_1", true, "The file was edited"),
    v.toolStart("call_2", "manage_todo_list", {
      operation: "write",
      todoList: [
        { id: 1, title: "Add tax", description: "", status: "completed" },
        { id: 2, title: "Round to cents", description: "", status: "in-progress" },
      ],
    }),
    v.toolComplete("call_2", true),
    v.toolStart("call_3", "run_in_terminal", '{"command":"npm test","explanation":"run the tests","isBackground":false}'),
    v.toolComplete("call_3", false, "FAIL cart.test.ts: expected 110 got 100\nCommand exited with code 1"),
    v.assistant("Tax is added; the rounding test fails."),
    v.turnEnd("0.0"),
  ];

  it("the session, the person's request, what ran (edits, the plan, a failed command) and the agent's last words", () => {
    const draft = draftOf(lines);
    expect(draft).toMatchObject({ format: "vscode", session_id: "v1", cwd: "/home/dev/app" });
    expect(draft.task?.text).toBe("Make the cart total include tax");
    // The edit counted once: from what ran, not also from what was asked.
    expect(draft.edited).toEqual(["/home/dev/app/src/cart.ts"]);
    expect(draft.plan).toEqual([
      { text: "Add tax", status: "completed" },
      { text: "Round to cents", status: "in_progress" },
    ]);
    expect(draft.failed).toEqual([{ command: "npm test", exit: 1, first_line: "FAIL cart.test.ts: expected 110 got 100" }]);
    expect(draft.status?.text).toBe("Tax is added; the rounding test fails.");
    expect(draftSummary(draft, "at session end (the agent stopped)")).toMatch(
      /^Drafted at session end \(the agent stopped\) from a VS Code session's transcript; the task: Make the cart total include tax/,
    );
  });

  it("turn markers and newer entry types are skipped, not unknown", () => {
    const drafter = new TranscriptDrafter();
    drafter.push(v.turnStart("1.0"));
    drafter.push(JSON.stringify({ type: "session.usage_checkpoint", data: {}, id: "x", timestamp: "t", parentId: null }));
    expect(drafter.draft().counts).toMatchObject({ lines: 2, skipped: 2, unknown: 0 });
  });
});

describe("Gemini CLI's chat file, as 0.61 writes it", () => {
  const g = gemini({ sessionId: "6ddfe9a9-f1f0-40b9-b8c5-241a139f269a" });

  it("a $set with messages is a checkpoint: the session is those messages from then on (its <session_context> is Gemini's, not the person's)", () => {
    const session = new GeminiSession();
    const records = [
      { sessionId: "6ddfe9a9-f1f0-40b9-b8c5-241a139f269a", projectHash: "b19d", startTime: "t", lastUpdated: "t", kind: "main" },
      g.user("An early request the checkpoint drops"),
      {
        $set: {
          messages: [
            g.user("<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context>"),
            g.user("Make me a CLI that converts CSV to JSON"),
            g.gemini("Written convert.py."),
          ],
        },
      },
      g.user("<hook_context>Handoff found a handoff for this repository and branch</hook_context>"),
      g.user("Now add a --pretty flag"),
      { $set: { lastUpdated: "t2" } },
    ];
    for (const record of records) expect(session.add(geminiRecord(record))).toBe(true);
    const drafter = new TranscriptDrafter();
    drafter.pushEvents(session.events());
    const draft = drafter.draft();
    expect(draft.task?.text).toBe("Make me a CLI that converts CSV to JSON");
    expect(draft.latest.map((r) => r.text)).toEqual(["Now add a --pretty flag", "Make me a CLI that converts CSV to JSON"]);
    expect(draft.counts.injected).toBe(2);
    expect(JSON.stringify(draft)).not.toContain("An early request");
  });

  it("a legacy record migrated onto one metadata line brings its messages", () => {
    const session = new GeminiSession();
    session.add(geminiRecord({ sessionId: "s", projectHash: "p", startTime: "t", lastUpdated: "t", messages: [g.user("Port the parser to Rust"), g.gemini("Started.")] }));
    const drafter = new TranscriptDrafter();
    drafter.pushEvents(session.events());
    expect(drafter.draft()).toMatchObject({ session_id: "s", task: { text: "Port the parser to Rust" }, status: { text: "Started." } });
  });
});
