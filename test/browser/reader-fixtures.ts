// Handoffs the browser tests publish: a ce-handoff whose card has every field, with a heading, a
// task list, code and links; and the kernel manifest example from the spec.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers/cli.js";

export const HEAD = "0123456789abcdef0123456789abcdef01234567";
export const CE_HANDOFF = `---
artifact_contract: "ce-handoff/v1"
created_at: "2026-11-30T09:15:00Z"
title: "Fix the login redirect"
summary: "Sessions expire during OAuth callback; refresh is half done"
keywords: ["auth", "oauth"]
cwd: "/src/app"
resume_focus: "finish token refresh in session.ts"
repository: "github.com/example/app"
branch: "fix/login-redirect"
head: "${HEAD}"
---

# Current state

The callback now keeps the \`state\` parameter.

- [x] reproduce with an expired session
- [ ] refresh the token before redirecting
- ünïcødé ✓

\`\`\`ts
const session = await refresh(token);
\`\`\`

See [the OAuth notes](https://example.com/oauth) and [the design doc](docs/design.md).
`;

export const MANIFEST = readFileSync(join(repoRoot, "test", "fixtures", "kernel", "example.yaml-skill-unification-2026-07-10.json"), "utf8");
