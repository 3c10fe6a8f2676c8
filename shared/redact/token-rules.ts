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
    prefixes: ["github_pat_"],
    pattern: /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{40,255}/dg,
  }),
  regexRule({
    ids: ["github-token", "github-oauth-token", "github-app-token", "github-refresh-token"],
    prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    pattern: /(?<![A-Za-z0-9])(?<kind>gh[pousr])_[A-Za-z0-9]{30,255}/dg,
    classify: (match) => ({ start: match.index, end: match.index + match[0].length, rule: GITHUB_IDS[match.groups?.kind ?? ""] ?? "github-token" }),
  }),
  regexRule({
    ids: ["gitlab-token"],
    prefixes: ["glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "glimt-", "glagent-", "glsoat-", "glffct-", "gloas-", "glft-", "glwt-"],
    pattern: /(?<![A-Za-z0-9])gl(?:pat|dt|ptt|rt|cbt|imt|agent|soat|ffct|oas|ft|wt)-[A-Za-z0-9_.-]{20,300}(?<!\.)/dg,
  }),
  regexRule({
    ids: ["anthropic-api-key"],
    prefixes: ["sk-ant-"],
    // Admin keys (sk-ant-admin01-) are the vendor rules' own family.
    pattern: /(?<![A-Za-z0-9])sk-ant-(?!admin01-)[A-Za-z0-9_-]{20,300}/dg,
  }),
  regexRule({
    ids: ["openai-api-key"],
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
    prefixes: ["hf_"],
    pattern: /(?<![A-Za-z0-9])hf_(?<body>[A-Za-z0-9]{30,64})(?![A-Za-z0-9_])/dg,
    classify: randomBody("huggingface-token", 3.5),
  }),
  regexRule({
    ids: ["aws-access-key-id"],
    prefixes: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/dg,
  }),
  regexRule({
    ids: ["gcp-api-key"],
    prefixes: ["AIza"],
    pattern: /(?<![A-Za-z0-9])AIza[A-Za-z0-9_-]{35}/dg,
  }),
  regexRule({
    ids: ["slack-token"],
    prefixes: ["xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-", "xoxe", "xapp-"],
    pattern: /(?<![A-Za-z0-9])(?:xox[abprs]-|xoxe(?:\.xox[bp])?-|xapp-)[A-Za-z0-9-]{10,250}/dg,
  }),
  regexRule({
    ids: ["slack-webhook"],
    prefixes: ["hooks.slack.com/"],
    pattern: /hooks\.slack\.com\/(?<secret>(?:services|workflows|triggers)\/[A-Za-z0-9_\/+-]{20,200})/dg,
  }),
  regexRule({
    ids: ["stripe-key"],
    prefixes: ["sk_live_", "sk_test_", "rk_live_", "rk_test_"],
    pattern: /(?<![A-Za-z0-9])[sr]k_(?:live|test)_[A-Za-z0-9]{10,247}/dg,
  }),
  regexRule({
    ids: ["npm-token"],
    prefixes: ["npm_"],
    pattern: /(?<![A-Za-z0-9])npm_(?<body>[A-Za-z0-9]{36,64})(?![A-Za-z0-9_])/dg,
    classify: randomBody("npm-token", 3.5),
  }),
  regexRule({
    ids: ["pypi-token"],
    prefixes: ["pypi-AgE"],
    pattern: /(?<![A-Za-z0-9])pypi-AgE[A-Za-z0-9_-]{50,2000}/dg,
  }),
  regexRule({
    ids: ["sendgrid-api-key"],
    prefixes: ["SG."],
    pattern: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/dg,
  }),
  regexRule({
    ids: ["twilio-api-key"],
    prefixes: ["SK"],
    pattern: /(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/dg,
  }),
  regexRule({
    ids: ["mailgun-api-key"],
    prefixes: ["key-"],
    pattern: /(?<![A-Za-z0-9_-])key-(?<body>[A-Za-z0-9]{32})(?![A-Za-z0-9])/dg,
    classify: randomBody("mailgun-api-key", 3),
  }),
  regexRule({
    ids: ["jwt"],
    prefixes: ["eyJ"],
    // Three base64url parts; the header is a JSON object, so it starts with eyJ ('{"').
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{2,16384}\.[A-Za-z0-9_-]{0,8192}/dg,
  }),
];
