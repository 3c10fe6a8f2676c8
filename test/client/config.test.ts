import { chmod, chown, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type PublishFlags, configDirFor, credentialsFor, resolvePublishConfig, writeConfig } from "../../client/lib/config.js";
import type { HandoffError } from "../../shared/errors.js";

let root: string;
let home: string;
let xdg: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "handoff-config-"));
  home = join(root, "home");
  xdg = join(root, "xdg");
  await mkdir(home);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes ~/.config/handoff/config.json (or under XDG) as raw text with a given mode. */
async function putConfig(content: unknown, mode = 0o600, base = join(home, ".config")): Promise<string> {
  const dir = join(base, "handoff");
  await mkdir(dir, { recursive: true });
  const path = join(dir, "config.json");
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  await chmod(path, mode);
  return path;
}

async function rejection(promise: Promise<unknown>): Promise<HandoffError> {
  const outcome = await promise.then(
    () => new Error("expected a rejection"),
    (error: unknown) => error,
  );
  expect(outcome).toHaveProperty("reason");
  return outcome as HandoffError;
}

const FILE_SERVER = "https://file.example.com";
const ENV_SERVER = "https://env.example.com";
const FLAG_SERVER = "https://flag.example.com";

describe("resolvePublishConfig precedence: flags > env > file", () => {
  it.each<{ name: string; flags?: PublishFlags; env?: Record<string, string>; file?: Record<string, string>; server?: string; source: string }>([
    { name: "nothing anywhere", source: "none" },
    { name: "file only", file: { server: FILE_SERVER }, server: FILE_SERVER, source: "file" },
    { name: "env over file", file: { server: FILE_SERVER }, env: { HANDOFF_SERVER: ENV_SERVER }, server: ENV_SERVER, source: "env" },
    {
      name: "flag over env and file",
      file: { server: FILE_SERVER },
      env: { HANDOFF_SERVER: ENV_SERVER },
      flags: { server: FLAG_SERVER },
      server: FLAG_SERVER,
      source: "flag",
    },
    { name: "flag only", flags: { server: FLAG_SERVER }, server: FLAG_SERVER, source: "flag" },
    { name: "empty env counts as unset", file: { server: FILE_SERVER }, env: { HANDOFF_SERVER: "" }, server: FILE_SERVER, source: "file" },
    { name: "empty flag counts as unset", env: { HANDOFF_SERVER: ENV_SERVER }, flags: { server: "" }, server: ENV_SERVER, source: "env" },
    { name: "server normalised", env: { HANDOFF_SERVER: "https://Env.Example.com:443/x/" }, server: "https://env.example.com/x", source: "env" },
  ])("server: $name", async ({ flags = {}, env = {}, file, server, source }) => {
    if (file) await putConfig(file);
    const config = await resolvePublishConfig({ flags, env, home });
    expect(config.server).toBe(server);
    expect(config.source.server).toBe(source);
    expect(config.configPath).toBe(join(home, ".config", "handoff", "config.json"));
    expect(config.warnings).toEqual([]);
  });

  it.each<{ name: string; flags?: PublishFlags; env?: Record<string, string>; file?: Record<string, unknown>; token?: string; source: string; warns?: RegExp }>([
    { name: "file token with file server", file: { server: FILE_SERVER, token: "file-tok" }, token: "file-tok", source: "file" },
    {
      name: "env token bound to HANDOFF_SERVER, over the file's token for that server",
      file: { server: ENV_SERVER, token: "file-tok" },
      env: { HANDOFF_SERVER: ENV_SERVER, HANDOFF_TOKEN: "env-tok" },
      token: "env-tok",
      source: "env",
    },
    {
      name: "env token without HANDOFF_SERVER is not used",
      file: { server: FILE_SERVER, token: "file-tok" },
      env: { HANDOFF_TOKEN: "env-tok" },
      token: "file-tok",
      source: "file",
      warns: /the publish token in the environment is not used: it is bound to HANDOFF_SERVER, which is not set/,
    },
    {
      name: "flag token bound to --server, over env",
      env: { HANDOFF_SERVER: FLAG_SERVER, HANDOFF_TOKEN: "env-tok" },
      flags: { server: FLAG_SERVER, token: "flag-tok" },
      token: "flag-tok",
      source: "flag",
    },
    {
      name: "file token without a file server is bound to nothing",
      file: { token: "file-tok" },
      env: { HANDOFF_SERVER: ENV_SERVER },
      source: "none",
      warns: /the token in .*config\.json is not used: it names no server/,
    },
    {
      name: "file token kept when --server names the same server",
      file: { server: FILE_SERVER, token: "file-tok" },
      flags: { server: `${FILE_SERVER}/` },
      token: "file-tok",
      source: "file",
    },
    {
      name: "file token not sent to a different --server",
      file: { server: FILE_SERVER, token: "file-tok" },
      flags: { server: FLAG_SERVER },
      source: "none",
      warns: /not sending the publish token from .*config\.json to https:\/\/flag\.example\.com: it is bound to https:\/\/file\.example\.com/,
    },
    {
      name: "env token not sent to a different --server",
      env: { HANDOFF_SERVER: ENV_SERVER, HANDOFF_TOKEN: "env-tok" },
      flags: { server: FLAG_SERVER },
      source: "none",
      warns: /not sending the publish token from the environment/,
    },
    {
      name: "version 2: the token of the chosen server's entry",
      file: { version: 2, default_server: FILE_SERVER, servers: { [FILE_SERVER]: { token: "file-tok" }, [ENV_SERVER]: { token: "other-tok" } } },
      env: { HANDOFF_SERVER: ENV_SERVER },
      token: "other-tok",
      source: "file",
    },
    {
      name: "version 2: a server with no entry gets no token",
      file: { version: 2, default_server: FILE_SERVER, servers: { [FILE_SERVER]: { token: "file-tok" } } },
      flags: { server: FLAG_SERVER },
      source: "none",
      warns: /not sending the publish token from .*config\.json to https:\/\/flag\.example\.com/,
    },
  ])("token: $name", async ({ flags = {}, env = {}, file, token, source, warns }) => {
    if (file) await putConfig(file);
    const config = await resolvePublishConfig({ flags, env, home });
    expect(config.token).toBe(token);
    expect(config.source.token).toBe(source);
    if (warns) expect(config.warnings).toEqual([expect.stringMatching(warns)]);
    else expect(config.warnings).toEqual([]);
  });

  it("team token follows the same rules", async () => {
    await putConfig({ server: FILE_SERVER, team_token: "team-file" });
    const fromFile = await resolvePublishConfig({ flags: {}, env: {}, home });
    expect([fromFile.teamToken, fromFile.source.teamToken]).toEqual(["team-file", "file"]);
    const fromEnv = await resolvePublishConfig({ flags: {}, env: { HANDOFF_SERVER: FILE_SERVER, HANDOFF_TEAM_TOKEN: "team-env" }, home });
    expect([fromEnv.teamToken, fromEnv.source.teamToken]).toEqual(["team-env", "env"]);
    const elsewhere = await resolvePublishConfig({ flags: { server: FLAG_SERVER }, env: {}, home });
    expect(elsewhere.teamToken).toBeUndefined();
    expect(elsewhere.warnings).toEqual([expect.stringContaining("not sending the team token")]);
  });

  it("credentialsFor returns only what is bound to the asked server", async () => {
    await putConfig({ version: 2, servers: { [FILE_SERVER]: { team_token: "team-file" } } });
    const env = { HANDOFF_SERVER: ENV_SERVER, HANDOFF_TEAM_TOKEN: "team-env" };
    expect((await credentialsFor(`${FILE_SERVER}/`, { env, home })).teamToken).toEqual({ value: "team-file", server: FILE_SERVER });
    expect((await credentialsFor(ENV_SERVER, { env, home })).teamToken).toEqual({ value: "team-env", server: ENV_SERVER });
    expect((await credentialsFor(FLAG_SERVER, { env, home })).teamToken).toBeUndefined();
    // Same host, other port or scheme or prefix: another server.
    for (const near of ["https://file.example.com:8443", "http://file.example.com.evil.test", "https://file.example.com/prefix"]) {
      expect((await credentialsFor(near, { env, home })).teamToken).toBeUndefined();
    }
  });

  it("reads the file even when flags and env decide everything, so its warnings are always shown", async () => {
    await putConfig("{ broken");
    await expect(resolvePublishConfig({ flags: { server: FLAG_SERVER, teamToken: "t" }, env: { HANDOFF_TOKEN: "e" }, home })).rejects.toMatchObject({
      reason: "invalid_document",
    });
  });
});

describe("config folder", () => {
  it.each([
    { name: "absolute XDG_CONFIG_HOME", xdgValue: "XDG", expected: "XDG/handoff" },
    { name: "relative XDG_CONFIG_HOME is ignored", xdgValue: "relative/dir", expected: "HOME/.config/handoff" },
    { name: "empty XDG_CONFIG_HOME", xdgValue: "", expected: "HOME/.config/handoff" },
    { name: "no XDG_CONFIG_HOME", xdgValue: undefined, expected: "HOME/.config/handoff" },
  ])("$name", async ({ xdgValue, expected }) => {
    const env = { XDG_CONFIG_HOME: xdgValue?.replace("XDG", xdg) };
    const dir = expected.replace("XDG", xdg).replace("HOME", home);
    expect(configDirFor({ env, home })).toBe(dir);
    await putConfig({ server: FILE_SERVER }, 0o600, join(dir, ".."));
    const config = await resolvePublishConfig({ flags: {}, env, home });
    expect(config.configPath).toBe(join(dir, "config.json"));
    expect(config.server).toBe(FILE_SERVER);
  });
});

describe("invalid configuration is named precisely", () => {
  it.each([
    { name: "not JSON", content: "{ server: x }", message: /config\.json is not valid JSON/ },
    { name: "an array", content: "[]", message: /must hold a JSON object with the keys server, token, team_token/ },
    { name: "a typo", content: { sever: FILE_SERVER }, message: /unknown key 'sever' \(allowed: server, token, team_token\)/ },
    { name: "server not a string", content: { server: 8787 }, message: /key 'server' .*expected string/ },
    { name: "token with a space", content: { token: "abc def" }, message: /key 'token' must be 1 to 512 visible ASCII/ },
    { name: "version 2 with a version-1 key", content: { version: 2, server: FILE_SERVER }, message: /unknown key 'server' \(allowed: version, default_server, servers, auto_handoffs\)/ },
    { name: "version 2 with a bad server key", content: { version: 2, servers: { "http://example.com": {} } }, message: /the server 'http:\/\/example\.com' in .*config\.json uses plain http/ },
    { name: "version 2 with a bad token", content: { version: 2, servers: { [FILE_SERVER]: { team_token: "a b" } } }, message: /key 'servers\.https:\/\/file\.example\.com\.team_token' must be/ },
    { name: "an unknown version", content: { version: 5, servers: {} }, message: /key 'version'/ },
    { name: "team keys in a version-2 file", content: { version: 2, servers: { [FILE_SERVER]: { team_keys: [] } } }, message: /key 'version' team_keys needs "version": 3/ },
    {
      name: "a team key of the wrong length",
      content: { version: 3, servers: { [FILE_SERVER]: { team_keys: [{ id: "A".repeat(12), key: "A".repeat(42), added_at: "2026-05-01T10:00:00Z" }] } } },
      message: /team_keys\.0\.key' must be 43 base64url characters \(a 256-bit team key\)/,
    },
    { name: "team token with a newline", content: { team_token: "abc\n" }, message: /key 'team_token' must be/ },
    { name: "plain http server", content: { server: "http://example.com" }, message: /server in .*config\.json uses plain http to example\.com/ },
    { name: "server with credentials", content: { server: "https://u:p@example.com" }, message: /server in .*config\.json must not contain a user name/ },
  ])("$name", async ({ content, message }) => {
    const path = await putConfig(content);
    const error = await rejection(resolvePublishConfig({ flags: {}, env: {}, home }));
    expect(error.reason).toBe("invalid_document");
    expect(error.message).toContain(path);
    expect(error.message).toMatch(message);
  });

  it.each([
    { name: "HANDOFF_SERVER", env: { HANDOFF_SERVER: "http://example.com" }, flags: {}, message: /^HANDOFF_SERVER uses plain http/ },
    { name: "--server", env: {}, flags: { server: "example.com" }, message: /^--server is not a URL/ },
    { name: "HANDOFF_TOKEN", env: { HANDOFF_TOKEN: "sec ret-value" }, flags: {}, message: /^HANDOFF_TOKEN must be 1 to 512/ },
    { name: "--team-token", env: {}, flags: { teamToken: "sec\tret-value" }, message: /^--team-token must be/ },
  ])("bad $name is invalid_option and never echoes a secret", async ({ env, flags, message }) => {
    const error = await rejection(resolvePublishConfig({ flags, env, home }));
    expect(error.reason).toBe("invalid_option");
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain("ret-value");
  });
});

describe("config file modes", () => {
  it.each([
    { mode: 0o644, content: { server: FILE_SERVER, token: "t" }, after: 0o600, warns: /was readable by other users \(mode 0644\); changed it to 0600\. .*treat its tokens as exposed/ },
    { mode: 0o640, content: { server: FILE_SERVER, team_token: "t" }, after: 0o600, warns: /was readable by other users \(mode 0640\)/ },
    { mode: 0o666, content: { server: FILE_SERVER }, after: 0o600, warns: /was writable by other users \(mode 0666\); changed it to 0600\.$/ },
    { mode: 0o644, content: { server: FILE_SERVER }, after: 0o644, warns: undefined },
    { mode: 0o600, content: { server: FILE_SERVER, token: "t" }, after: 0o600, warns: undefined },
    { mode: 0o400, content: { server: FILE_SERVER, token: "t" }, after: 0o400, warns: undefined },
  ])("mode $mode holding $content", async ({ mode, content, after, warns }) => {
    const path = await putConfig(content, mode);
    const config = await resolvePublishConfig({ flags: {}, env: {}, home });
    expect((await stat(path)).mode & 0o777).toBe(after);
    expect(config.warnings).toEqual(warns ? [expect.stringMatching(warns)] : []);
  });

  it.skipIf(process.getuid?.() !== 0)("refuses a config file another user owns", async () => {
    const path = await putConfig({ server: FILE_SERVER });
    await chown(path, 54321, 54321);
    const error = await rejection(resolvePublishConfig({ flags: {}, env: {}, home }));
    expect(error.reason).toBe("unsafe_store");
    expect(error.message).toContain("belongs to another user (uid 54321)");
  });

  it("a folder in place of the file is unreadable, not a crash", async () => {
    await mkdir(join(home, ".config", "handoff", "config.json"), { recursive: true });
    await expect(resolvePublishConfig({ flags: {}, env: {}, home })).rejects.toMatchObject({ reason: "unreadable" });
  });
});

describe("writeConfig", () => {
  it("writes 0600 in a 0700 folder, atomically, and reads back", async () => {
    const env = { XDG_CONFIG_HOME: xdg };
    const path = await writeConfig({ env, home }, { server: "https://Example.com/", token: "tok", team_token: "team" });
    expect(path).toBe(join(xdg, "handoff", "config.json"));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(xdg, "handoff"))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ server: "https://example.com", token: "tok", team_token: "team" });
    await writeConfig({ env, home }, { server: FILE_SERVER });
    expect(await readdir(join(xdg, "handoff"))).toEqual(["config.json"]);
    const config = await resolvePublishConfig({ flags: {}, env, home });
    expect([config.server, config.token]).toEqual([FILE_SERVER, undefined]);
  });

  it.each([
    { name: "http server", config: { server: "http://example.com" } },
    { name: "bad token", config: { token: "" } },
    { name: "unknown key", config: { serverr: "x" } as never },
  ])("refuses $name and writes nothing", async ({ config }) => {
    await expect(writeConfig({ env: {}, home }, config)).rejects.toMatchObject({ reason: "invalid_document" });
    await expect(stat(join(home, ".config", "handoff", "config.json"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
