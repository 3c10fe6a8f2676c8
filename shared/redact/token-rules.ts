import { charClasses, shannonEntropy } from "./entropy.js";
import { regexRule, type Classify } from "./regex-rule.js";
import type { Rule } from "./types.js";

/**
 * Vendor tokens recognisable by their own prefix. Formats follow the vendors' documentation
 * and the public rule lists of gitleaks and secretlint; the patterns are our own.
 *
 * Every pattern starts behind `(?<![A-Za-z0-9])` (so `task-`, `monkey-`, `shelf_` do not count
 * as `sk-`, `key-`, `hf_`) and bounds its body, which is what keeps it linear on hostile input.
 */

/** Whole match as `rule` when the body looks random enough to be a key, not a slug. */
const randomBody =
  (rule: string, minEntropy: number): Classify =>
  (match) => {
    const body = match.groups?.body ?? match[0];
    if (shannonEntropy(body) < minEntropy || charClasses(body) < 2) return undefined;
    return { start: match.index, end: match.index + match[0].length, rule };
  };

const GITHUB_IDS: Record<string, string> = {
  ghp: "github-token",
  gho: "github-oauth-token",
  ghu: "github-app-token",
  ghs: "github-app-token",
  ghr: "github-refresh-token",
};

export const TOKEN_RULES: readonly Rule[] = [
  regexRule({
    ids: ["github-fine-grained-token"],
    docs: { "github-fine-grained-token": { what: "GitHub fine-grained personal access token", shape: "`github_pat_` + 40 to 255 letters, digits, `_`" } },
    prefixes: ["github_pat_"],
    pattern: /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{40,255}/dg,
  }),
  regexRule({
    ids: ["github-token", "github-oauth-token", "github-app-token", "github-refresh-token"],
    docs: {
      "github-token": { what: "GitHub classic personal access token", shape: "`ghp_` + 30 or more letters and digits" },
      "github-oauth-token": { what: "GitHub OAuth token", shape: "`gho_` + 30 or more letters and digits" },
      "github-app-token": { what: "GitHub App user-to-server and installation tokens", shape: "`ghu_` or `ghs_` + 30 or more letters and digits" },
      "github-refresh-token": { what: "GitHub refresh token", shape: "`ghr_` + 30 or more letters and digits" },
    },
    prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    pattern: /(?<![A-Za-z0-9])(?<kind>gh[pousr])_[A-Za-z0-9]{30,255}/dg,
    classify: (match) => ({ start: match.index, end: match.index + match[0].length, rule: GITHUB_IDS[match.groups?.kind ?? ""] ?? "github-token" }),
  }),
  regexRule({
    ids: ["gitlab-token"],
    docs: {
      "gitlab-token": {
        what: "GitLab tokens: personal, deploy, trigger, runner, CI job, incoming mail, agent, SCIM, feature flag, OAuth, feed, workspace",
        shape: "`glpat-`, `gldt-`, `glptt-`, `glrt-`, `glcbt-`, `glimt-`, `glagent-`, `glsoat-`, `glffct-`, `gloas-`, `glft-`, `glwt-` + 20 or more",
      },
    },
    prefixes: ["glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "glimt-", "glagent-", "glsoat-", "glffct-", "gloas-", "glft-", "glwt-"],
    pattern: /(?<![A-Za-z0-9])gl(?:pat|dt|ptt|rt|cbt|imt|agent|soat|ffct|oas|ft|wt)-[A-Za-z0-9_.-]{20,300}(?<!\.)/dg,
  }),
  regexRule({
    ids: ["anthropic-api-key"],
    docs: { "anthropic-api-key": { what: "Anthropic API key", shape: "`sk-ant-` + 20 or more letters, digits, `-`, `_`" } },
    prefixes: ["sk-ant-"],
    // Admin keys (sk-ant-admin01-) are the vendor rules' own family.
    pattern: /(?<![A-Za-z0-9])sk-ant-(?!admin01-)[A-Za-z0-9_-]{20,300}/dg,
  }),
  regexRule({
    ids: ["openai-api-key"],
    docs: { "openai-api-key": { what: "OpenAI API key with a random-looking body", shape: "`sk-`, `sk-proj-`, `sk-svcacct-`, `sk-admin-` + 20 or more" } },
    prefixes: ["sk-"],
    // sk-ant- belongs to the rule above; the body check keeps kebab-case slugs out.
    pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?<body>(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,300})/dg,
    classify: (match) => {
      const body = match.groups?.body ?? "";
      if (!/[0-9]/.test(body) || charClasses(body) < 3 || shannonEntropy(body) < 3.5) return undefined;
      return { start: match.index, end: match.index + match[0].length, rule: "openai-api-key" };
    },
  }),
  regexRule({
    ids: ["huggingface-token"],
    docs: { "huggingface-token": { what: "Hugging Face access token", shape: "`hf_` + 30 to 64 letters and digits" } },
    prefixes: ["hf_"],
    pattern: /(?<![A-Za-z0-9])hf_(?<body>[A-Za-z0-9]{30,64})(?![A-Za-z0-9_])/dg,
    classify: randomBody("huggingface-token", 3.5),
  }),
  regexRule({
    ids: ["aws-access-key-id"],
    docs: { "aws-access-key-id": { what: "AWS access key id", shape: "`AKIA`, `ASIA`, `ABIA`, `ACCA` or `A3T` and one more + 16 upper-case letters and digits" } },
    prefixes: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/dg,
  }),
  regexRule({
    ids: ["gcp-api-key"],
    docs: { "gcp-api-key": { what: "Google API key", shape: "`AIza` + 35" } },
    prefixes: ["AIza"],
    pattern: /(?<![A-Za-z0-9])AIza[A-Za-z0-9_-]{35}/dg,
  }),
  regexRule({
    ids: ["slack-token"],
    docs: { "slack-token": { what: "Slack bot, user, app, refresh and configuration tokens", shape: "`xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`, `xoxs-`, `xoxe-`, `xapp-` + 10 or more" } },
    prefixes: ["xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-", "xoxe", "xapp-"],
    pattern: /(?<![A-Za-z0-9])(?:xox[abprs]-|xoxe(?:\.xox[bp])?-|xapp-)[A-Za-z0-9-]{10,250}/dg,
  }),
  regexRule({
    ids: ["slack-webhook"],
    docs: { "slack-webhook": { what: "Slack webhook path", shape: "`hooks.slack.com/` then `services/…`, `workflows/…` or `triggers/…`", stays: "the host" } },
    prefixes: ["hooks.slack.com/"],
    pattern: /hooks\.slack\.com\/(?<secret>(?:services|workflows|triggers)\/[A-Za-z0-9_\/+-]{20,200})/dg,
  }),
  regexRule({
    ids: ["stripe-key"],
    docs: { "stripe-key": { what: "Stripe secret and restricted keys", shape: "`sk_live_`, `sk_test_`, `rk_live_`, `rk_test_` + 10 or more" } },
    prefixes: ["sk_live_", "sk_test_", "rk_live_", "rk_test_"],
    pattern: /(?<![A-Za-z0-9])[sr]k_(?:live|test)_[A-Za-z0-9]{10,247}/dg,
  }),
  regexRule({
    ids: ["npm-token"],
    docs: { "npm-token": { what: "npm access token", shape: "`npm_` + 36 to 64 letters and digits" } },
    prefixes: ["npm_"],
    pattern: /(?<![A-Za-z0-9])npm_(?<body>[A-Za-z0-9]{36,64})(?![A-Za-z0-9_])/dg,
    classify: randomBody("npm-token", 3.5),
  }),
  regexRule({
    ids: ["pypi-token"],
    docs: { "pypi-token": { what: "PyPI API token (pypi.org and test.pypi.org macaroons)", shape: "`pypi-AgE` + 50 or more" } },
    prefixes: ["pypi-AgE"],
    pattern: /(?<![A-Za-z0-9])pypi-AgE[A-Za-z0-9_-]{50,2000}/dg,
  }),
  regexRule({
    ids: ["sendgrid-api-key"],
    docs: { "sendgrid-api-key": { what: "SendGrid API key", shape: "`SG.` + 22 + `.` + 43" } },
    prefixes: ["SG."],
    pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/dg,
  }),
  regexRule({
    ids: ["twilio-api-key"],
    docs: { "twilio-api-key": { what: "Twilio API key (an `AC…` account SID alone is not a secret)", shape: "`SK` + 32 hex" } },
    prefixes: ["SK"],
    pattern: /(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/dg,
  }),
  regexRule({
    ids: ["mailgun-api-key"],
    docs: { "mailgun-api-key": { what: "Mailgun API key", shape: "`key-` + 32 letters and digits" } },
    prefixes: ["key-"],
    pattern: /(?<![A-Za-z0-9_-])key-(?<body>[A-Za-z0-9]{32})(?![A-Za-z0-9])/dg,
    classify: randomBody("mailgun-api-key", 3),
  }),
  regexRule({
    ids: ["jwt"],
    docs: { jwt: { what: "JSON Web Token", shape: "three base64url parts joined by dots, the header starting `eyJ`" } },
    prefixes: ["eyJ"],
    // Three base64url parts; the header is a JSON object, so it starts with eyJ ('{"').
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{2,16384}\.[A-Za-z0-9_-]{0,8192}/dg,
  }),
];
