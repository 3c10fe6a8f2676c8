import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { discoverHandoffs } from "../../client/ops/discover/discover.js";
import { FIRST_LINE_MAX_BYTES, HEAD_MAX_BYTES, readCandidateHead } from "../../client/ops/discover/read-head.js";
import { indexWrittenShape, indexWrittenText } from "../../shared/discover/index-flat.js";
import { ensureBuilt } from "../helpers/cli.js";
import { type Sandbox, ceText, privateDir, resumeJson, sandbox, writeFile } from "./resume-sandbox.js";

beforeAll(ensureBuilt);

const GIB2 = 2 * 1024 * 1024 * 1024;

function mkfifo(path: string): string {
  execFileSync("mkfifo", [path]);
  return path;
}

/** A listening unix socket at `path`, closed when the test is done with it. */
async function unixSocket(path: string): Promise<() => Promise<void>> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return () => new Promise((resolve) => server.close(() => resolve()));
}

/** A YAML billion-laughs: nine levels of nine aliases each. */
function aliasBomb(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = "abcdefghi";
  for (let i = 1; i < names.length; i++) {
    const prev = names[i - 1]!;
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(",")}]`);
  }
  return ["---", ...lines, "title: bomb", "---", "body", ""].join("\n");
}

/** The managed store of `box` with one ordinary handoff, plus a namespace folder to plant things in. */
function storeWithOne(box: Sandbox): string {
  privateDir(box.root);
  const ns = privateDir(join(box.store, "ns"));
  writeFile(join(ns, "real.md"), ceText({ title: "Real handoff", keywords: ["real"] }));
  return ns;
}

describe("adversarial stores: nothing hangs, crashes or is read past its bounds", () => {
  it("symlinks, loops, FIFOs, sockets, sparse, unclosed, ---js, alias bomb and binary files", async () => {
    const box = sandbox();
    const ns = storeWithOne(box);
    // Outside targets are FIFOs: following a link and reading would block until the timeout.
    const outside = privateDir(join(box.base, "outside"));
    mkfifo(join(outside, "trap.md"));
    symlinkSync(mkfifo(join(box.base, "outside-trap.md")), join(ns, "link-to-file.md"));
    symlinkSync(outside, join(ns, "link-to-folder"));
    symlinkSync("loop-b.md", join(ns, "loop-a.md"));
    symlinkSync("loop-a.md", join(ns, "loop-b.md"));
    mkdirSync(join(ns, "sub"), { mode: 0o700 });
    symlinkSync("..", join(ns, "sub", "up"));
    mkfifo(join(ns, "fifo.md"));
    const closeSocket = await unixSocket(join(ns, "socket.md"));
    writeFile(join(ns, "sparse.md"), "");
    truncateSync(join(ns, "sparse.md"), GIB2);
    writeFile(join(ns, "sparse-indexed.md"), ceText({ title: "Sparse but indexed" }, "# x\n"));
    truncateSync(join(ns, "sparse-indexed.md"), GIB2);
    writeFile(join(ns, "unclosed.md"), ["---", ...Array.from({ length: 70 }, (_, i) => `k${i}: v`), "body"].join("\n"));
    writeFile(join(ns, "js.md"), '---js\n{ title: (() => "pwned")() }\n---\nbody\n');
    writeFile(join(ns, "bomb.md"), aliasBomb());
    writeFile(
      join(ns, "binary.md"),
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256),
    );
    writeFile(join(ns, "binary-frontmatter.md"), Uint8Array.from([...Buffer.from("---\n"), 0, 0xff, 0xfe, 10, ...Buffer.from("---\n")]));

    try {
      const { code, result } = await resumeJson(box, ["--limit", "100"], box.base);
      expect(code).toBe(0);
      const byName = Object.fromEntries(result.candidates.map((c: { path: string }) => [c.path.slice(ns.length + 1), c]));
      expect(Object.keys(byName).sort()).toEqual(["binary-frontmatter.md", "binary.md", "bomb.md", "js.md", "real.md", "sparse-indexed.md", "sparse.md", "unclosed.md"]);
      expect(result.searched.skipped).toMatchObject({ symlinks: 5, special: 2, escaped: 0 });
      expect(byName["real.md"]).toMatchObject({ indexed: true, title: "Real handoff" });
      expect(byName["sparse-indexed.md"]).toMatchObject({ indexed: true, title: "Sparse but indexed" });
      expect(byName["sparse.md"]).toMatchObject({ indexed: false, unindexed_reason: "no frontmatter" });
      expect(byName["sparse.md"].first_line).toHaveLength(200);
      expect(byName["unclosed.md"]).toMatchObject({ indexed: false, unindexed_reason: "no closing --- within the first 64 lines and 16 KiB" });
      expect(byName["js.md"]).toMatchObject({ indexed: false, title: null, unindexed_reason: "no frontmatter", first_line: "---js" });
      expect(byName["bomb.md"]).toMatchObject({ indexed: false, title: null });
      expect(byName["bomb.md"].unindexed_reason).toMatch(/^invalid YAML: .*alias/i);
      expect(byName["binary.md"]).toMatchObject({ indexed: false });
      expect(byName["binary-frontmatter.md"]).toMatchObject({ indexed: false, unindexed_reason: "the frontmatter is not valid UTF-8" });
      expect(JSON.stringify(result)).not.toContain("pwned");
    } finally {
      await closeSocket();
    }
  });

  it("a symlinked ce-handoff folder inside a safe root is refused, with a warning", async () => {
    const box = sandbox();
    privateDir(box.root);
    const elsewhere = privateDir(join(box.base, "elsewhere"));
    writeFile(join(elsewhere, "planted.md"), ceText({ title: "Planted" }));
    symlinkSync(elsewhere, box.store);
    const { code, result, stderr } = await resumeJson(box, [], box.base);
    expect(code).toBe(1);
    expect(result.candidates).toEqual([]);
    expect(result.warnings).toEqual([expect.stringMatching(/^skipped the managed store: unsafe managed store: .*ce-handoff is a symlink$/)]);
    expect(stderr).toContain("warning: skipped the managed store");
  });

  it.each([
    ["a symlink", (box: Sandbox) => symlinkSync(privateDir(join(box.base, "real-root")), box.root), /is a symlink$/],
    ["owned by another user", (box: Sandbox) => chownSync(privateDir(box.root), 65534, 65534), /is owned by uid 65534, not by you/],
    ["mode 0777", (box: Sandbox) => chmodSync(privateDir(box.root), 0o777), /is writable by others \(mode 777\)$/],
  ])("a managed root that is %s is skipped with a warning", async (_name, plant, message) => {
    const box = sandbox();
    plant(box);
    // Whatever the root holds is never listed.
    privateDir(join(box.store, "ns"));
    writeFile(join(box.store, "ns", "planted.md"), ceText({ title: "Planted" }));
    const { code, result, stderr } = await resumeJson(box, [], box.base);
    expect(code).toBe(1);
    expect(result.candidates).toEqual([]);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/^skipped the managed root: unsafe managed store: /);
    expect(result.warnings[0]).toMatch(message);
    expect(stderr).toMatch(/warning: skipped the managed root/);
    expect(stderr).toContain("No relevant handoff found.");
  });

  it("an unsafe managed root is skipped and discovery of the other root goes on", async () => {
    const bad = sandbox();
    chmodSync(storeWithOne(bad), 0o700);
    chmodSync(bad.root, 0o777);
    const good = sandbox();
    const ns = storeWithOne(good);
    const result = await discoverHandoffs({
      boundaries: [
        { path: bad.root, managed: true },
        { path: good.root, managed: true },
      ],
      keywords: [],
      maxCandidates: 1000,
      limit: 5,
      current: { cwd: good.base },
      now: Date.now(),
    });
    expect(result.warnings).toEqual([expect.stringContaining(`${bad.root} is writable by others`)]);
    expect(result.boundary).toEqual([good.store]);
    expect(result.candidates.map((c) => c.path)).toEqual([join(ns, "real.md")]);
  });
});

describe("bounded candidate sets", () => {
  /** 5,000 valid handoffs written directly, handoff-i modified i seconds after a fixed time. */
  function bigStore(): { box: Sandbox; ns: string } {
    const box = sandbox();
    privateDir(box.root);
    const ns = privateDir(join(box.store, "ns"));
    const t0 = Date.parse("2026-01-01T00:00:00Z") / 1000;
    for (let i = 0; i < 5000; i++) {
      const path = join(ns, `handoff-${i}.md`);
      const topic = `kw${String(i % 50).padStart(2, "0")}x`;
      writeFileSync(path, ceText({ title: `Handoff ${i} about ${topic}`, keywords: [topic] }));
      utimesSync(path, t0 + i, t0 + i);
    }
    return { box, ns };
  }

  it("5,000 handoffs: a keyword search lists the right ones; --max-candidates keeps the most recent", async () => {
    const { box, ns } = bigStore();
    const all = await resumeJson(box, ["kw07x", "--limit", "3", "--max-candidates", "5000"], box.base);
    expect(all.code).toBe(0);
    expect(all.result.searched).toMatchObject({ files: 5000, relevant: 100, truncated: false });
    expect(all.result.candidates).toHaveLength(3);
    for (const c of all.result.candidates) expect(c.title).toMatch(/ about kw07x$/);

    const bounded = await resumeJson(box, ["--limit", "100", "--max-candidates", "100"], box.base);
    expect(bounded.code).toBe(0);
    expect(bounded.result.searched).toMatchObject({ files: 100, relevant: 100 });
    expect(bounded.result.searched.skipped.overBound).toBe(4900);
    const indexes = bounded.result.candidates.map((c: { path: string }) => Number(c.path.slice(ns.length + 1).match(/\d+/)![0]));
    expect(Math.min(...indexes)).toBe(4900);
    expect(new Set(indexes).size).toBe(100);
  });
});

describe("readCandidateHead reads within the contract's bounds", () => {
  const dir = () => sandbox().base;
  const ce = ceText({ title: "Bounded" });
  const frontmatterBytes = Buffer.byteLength(ce.slice(0, ce.indexOf("\n---\n") + 5));

  it.each([
    ["frontmatter then a 1 MiB body", (path: string) => writeFileSync(path, ce + "x".repeat(1024 * 1024))],
    [
      "frontmatter at the start of a 2 GB sparse file",
      (path: string) => {
        writeFileSync(path, ce);
        truncateSync(path, GIB2);
      },
    ],
  ])("%s: stops at the closing delimiter", (_name, make) => {
    const path = join(dir(), "h.md");
    make(path);
    const head = readCandidateHead(path);
    if (head.kind !== "head") throw new Error(`expected a head, got ${head.kind}`);
    expect(Buffer.from(head.bytes).toString("utf8")).toBe(ce.slice(0, frontmatterBytes));
    expect(head.bytesRead).toBeGreaterThanOrEqual(frontmatterBytes);
    // One first read of 1 KiB (the first-line bound), then steps of 512: never a step past the delimiter.
    expect(head.bytesRead).toBeLessThan(Math.max(FIRST_LINE_MAX_BYTES + 1, frontmatterBytes + 512));
  });

  it.each([
    ["70 short lines without a closing delimiter", ["---", ...Array.from({ length: 70 }, (_, i) => `k${i}: v`)].join("\n") + "\n", 64],
    ["4,000 lines without a closing delimiter", ["---", ...Array.from({ length: 4000 }, (_, i) => `k${i}: v`)].join("\n") + "\n", 64],
    ["one 40 KiB line after the opener", `---\n${"y".repeat(40 * 1024)}\n---\n`, 1],
  ])("%s: never more than 64 lines or 16 KiB", (_name, text, maxLines) => {
    const path = join(dir(), "h.md");
    writeFileSync(path, text);
    const head = readCandidateHead(path);
    if (head.kind !== "head") throw new Error(`expected a head, got ${head.kind}`);
    expect(head.bytesRead).toBeLessThanOrEqual(HEAD_MAX_BYTES);
    expect(head.bytes.length).toBeLessThanOrEqual(HEAD_MAX_BYTES);
    expect(Buffer.from(head.bytes).toString("latin1").split("\n").length - 1).toBeLessThanOrEqual(maxLines);
  });

  it("a `----` line is not taken for the closing delimiter wherever a read step cuts it", () => {
    const base = dir();
    // Every cut position up to past one 2 KiB step: the `---` of `----` ends exactly at a step somewhere.
    for (let pad = 0; pad < 2100; pad++) {
      const text = `---\ntitle: "t"\nnote: "${"n".repeat(pad)}"\n----\nsummary: "s"\n---\nbody\n`;
      const path = join(base, `h${pad}.md`);
      writeFileSync(path, text);
      const head = readCandidateHead(path);
      if (head.kind !== "head") throw new Error(`expected a head, got ${head.kind}`);
      expect(Buffer.from(head.bytes).toString("utf8")).toBe(text.slice(0, text.indexOf("\nbody") + 1));
    }
  });

  // The one search for `\n---\n` is only a shortcut: where the walk would end the head sooner (a
  // CRLF delimiter, the 64-line bound) or the bytes are not UTF-8, the written shape must refuse
  // what the search found, and the walk's head comes back as without the recogniser. (A value
  // the shortcut wrongly took would differ from the walk's index: the non-UTF-8 case has none.)
  it.each([
    ["a CRLF delimiter before an LF one", 'title: "t"\r\n---\r\nsummary: "s"\n---\nbody\n'],
    ["70 lines before the delimiter", `${Array.from({ length: 70 }, (_, i) => `k${i}: "v"`).join("\n")}\n---\nbody\n`],
    ["a byte that is not UTF-8 in a value", Buffer.concat([Buffer.from('title: "a'), Buffer.from([0xff]), Buffer.from('b"\n---\nbody\n')])],
    ["a U+FFFD written as such", 'title: "a\ufffdb"\n---\nbody\n'],
  ])("the written-shape shortcut gives the walk's head: %s", (_name, rest) => {
    const path = join(dir(), "h.md");
    writeFileSync(path, Buffer.concat([Buffer.from("---\n"), Buffer.from(rest)]));
    const walked = readCandidateHead(path);
    if (walked.kind !== "head") throw new Error(`expected a head, got ${walked.kind}`);
    const walkedBytes = Buffer.from(walked.bytes);
    const quick = readCandidateHead(path, indexWrittenText);
    // Recognised only as the walk's head would index; else the walk's head itself (which
    // discovery then indexes as before).
    if (quick.kind === "recognised") expect({ value: quick.value, bytesRead: quick.bytesRead }).toEqual({ value: indexWrittenShape(walkedBytes), bytesRead: walked.bytesRead });
    else expect(quick).toEqual({ kind: "head", bytes: new Uint8Array(walkedBytes), bytesRead: walked.bytesRead });
  });

  it("a head in the written shape is recognised with the walk's index and reads no more", () => {
    const path = join(dir(), "h.md");
    writeFileSync(path, ce + "x".repeat(64 * 1024));
    const walked = readCandidateHead(path);
    if (walked.kind !== "head") throw new Error(`expected a head, got ${walked.kind}`);
    const expected = indexWrittenShape(walked.bytes);
    expect(expected?.title).toBe("Bounded");
    expect(readCandidateHead(path, indexWrittenText)).toEqual({ kind: "recognised", value: expected, bytesRead: walked.bytesRead });
  });

  it.each([
    ["a Markdown file", "# Title of the notes\n", "# Title of the notes"],
    ["CRLF line ends", "# Windows notes\r\n", "# Windows notes"],
    ["---js", "---js\n", "---js"],
    ["a BOM before ---", "\ufeff---\n", "\ufeff---"],
  ])("no opener (%s): the first line and nothing much past it", (_name, firstLine, expected) => {
    const path = join(dir(), "h.md");
    writeFileSync(path, firstLine + "body line that must not be read\n".repeat(10_000));
    const head = readCandidateHead(path);
    if (head.kind !== "first-line") throw new Error(`expected a first line, got ${head.kind}`);
    expect(head.firstLine).toBe(expected);
    // One read of 1 KiB, the most a first-line label may take: the body behind it is never read.
    expect(head.bytesRead).toBe(FIRST_LINE_MAX_BYTES);
  });

  it("a first line longer than 1 KiB is cut there", () => {
    const path = join(dir(), "h.md");
    writeFileSync(path, "z".repeat(100_000));
    const head = readCandidateHead(path);
    expect(head).toMatchObject({ kind: "first-line", bytesRead: FIRST_LINE_MAX_BYTES });
  });

  it.each([
    ["a FIFO", (path: string) => mkfifo(path), "not-regular"],
    [
      "a symlink to a regular file",
      (path: string) => {
        writeFileSync(`${path}.target`, ce);
        symlinkSync(`${path}.target`, path);
      },
      "unreadable",
    ],
    ["a missing file", () => undefined, "unreadable"],
  ])("%s is skipped without blocking", (_name, make, reason) => {
    const path = join(dir(), "h.md");
    make(path);
    expect(readCandidateHead(path)).toEqual({ kind: "skipped", reason });
  });
});
