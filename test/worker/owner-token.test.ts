// The owner token a client draws before it publishes (Handoff-Owner-Token), so it keeps the token
// before the link exists: the server stores its hash like one it drew, and answers with it.
import { describe, expect, it } from "vitest";
import { OWNER_TOKEN_HEADER } from "../../shared/api/limits.js";
import { newToken } from "../../shared/ids/tokens.js";
import { call, errorCode, publish } from "./helpers.js";

describe("a client's own owner token", () => {
  it("is the link's: the answer carries it, and it revokes the link", async () => {
    const token = newToken("owner");
    const published = await publish("body", "", { headers: { [OWNER_TOKEN_HEADER]: token } });
    expect(published.owner_token).toBe(token);
    expect((await call(`/v1/handoffs/${published.id}/views`, { token })).status).toBe(200);
    expect((await call(`/v1/handoffs/${published.id}`, { method: "DELETE", token })).status).toBe(204);
    expect((await call(`/v1/handoffs/${published.id}`)).status).toBe(410);
  });

  it("without one the server draws one, as before", async () => {
    const published = await publish("body");
    expect(published.owner_token).toMatch(/^hdo_[A-Za-z0-9_-]{43}$/);
  });

  it.each([
    ["a team token", newToken("team")],
    ["a short one", "hdo_short"],
    ["not a token", "anything"],
  ])("%s is refused before anything is stored (400 invalid_option)", async (_label, value) => {
    const res = await call("/v1/handoffs", { method: "POST", body: "body", headers: { [OWNER_TOKEN_HEADER]: value } });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe("invalid_option");
  });
});
