import { charClasses, shannonEntropy } from "./entropy.js";
import { type Classify, regexRule } from "./regex-rule.js";
import type { Rule } from "./types.js";

/**
 * More vendor tokens with a prefix of their own, beside token-rules.ts. The token formats are
 * facts the vendors and public secret scanners (gitleaks' rule list) document; the rules are ours.
 * Each one is a literal prefix (the engine's prefilter skips the rule when it is absent) behind a
 * boundary lookbehind, then a bounded body of the characters the format allows, so a failed
 * start costs a bounded number of steps and a scan stays linear.
 */

/** Whole match as `rule` when the body (the `body` group, else the match) looks random. */
const random =
  (rule: string, minEntropy = 3): Classify =>
  (match) => {
    const body = match.groups?.body ?? match[0];
    if (shannonEntropy(body) < minEntropy || charClasses(body) < 2) return undefined;
    return { start: match.index, end: match.index + match[0].length, rule };
  };

/** The boundary every vendor pattern starts behind: no word character or dash before the prefix. */
const B = "(?<![A-Za-z0-9_-])";
/** And the one it ends before, so a longer run of the same characters is not cut in two. */
const E = "(?![A-Za-z0-9_-])";

interface Vendor {
  id: string;
  prefixes: string[];
  /** Source without the boundaries; compiled with `dg` (and `i` when `caseInsensitive`). */
  body: string;
  entropy?: number;
  caseInsensitive?: boolean;
}

/** One row per family; the `body` group is what the entropy check looks at. */
export const VENDORS: readonly Vendor[] = [
  { id: "handoff-token", prefixes: ["hdo_", "hdt_", "hdp_"], body: "hd[otp]_(?<body>[A-Za-z0-9_-]{43})", entropy: 3.5 },
  { id: "anthropic-admin-key", prefixes: ["sk-ant-admin01-"], body: "sk-ant-admin01-[A-Za-z0-9_-]{80,120}" },
  { id: "shopify-token", prefixes: ["shpat_", "shpca_", "shppa_", "shpss_"], body: "shp(?:at|ca|pa|ss)_(?<body>[a-fA-F0-9]{32})" },
  { id: "digitalocean-token", prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"], body: "do[por]_v1_(?<body>[a-f0-9]{64})" },
  { id: "doppler-token", prefixes: ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim."], body: "dp\\.(?:pt|st|sa|ct|scim)\\.(?<body>[A-Za-z0-9]{40,44})" },
  { id: "databricks-token", prefixes: ["dapi"], body: "dapi(?<body>[a-f0-9]{32})(?:-\\d)?" },
  { id: "postman-api-key", prefixes: ["PMAK-"], body: "PMAK-(?<body>[a-f0-9]{24}-[a-f0-9]{34})" },
  { id: "grafana-token", prefixes: ["glc_", "glsa_"], body: "(?:glc_(?<body>[A-Za-z0-9+/]{32,400}={0,2})|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})" },
  { id: "linear-api-key", prefixes: ["lin_api_"], body: "lin_api_(?<body>[A-Za-z0-9]{40})" },
  { id: "pulumi-token", prefixes: ["pul-"], body: "pul-(?<body>[a-f0-9]{40})" },
  { id: "atlassian-api-token", prefixes: ["ATATT3"], body: "ATATT3(?<body>[A-Za-z0-9_=-]{150,250})" },
  { id: "hashicorp-vault-token", prefixes: ["hvs.", "hvb.", "hvr."], body: "hv[sbr]\\.(?<body>[A-Za-z0-9_-]{24,200})" },
  { id: "sentry-token", prefixes: ["sntrys_", "sntryu_"], body: "(?:sntrys_(?<body>eyJ[A-Za-z0-9+/=_-]{40,400})|sntryu_[a-f0-9]{64})" },
  { id: "stripe-webhook-secret", prefixes: ["whsec_"], body: "whsec_(?<body>[A-Za-z0-9+/]{32,64})" },
  { id: "square-token", prefixes: ["sq0atp-", "sq0csp-", "EAAA"], body: "(?:sq0atp-(?<body>[A-Za-z0-9_-]{22})|sq0csp-[A-Za-z0-9_-]{43}|EAAA[A-Za-z0-9_-]{60})" },
  { id: "shippo-token", prefixes: ["shippo_live_", "shippo_test_"], body: "shippo_(?:live|test)_(?<body>[a-fA-F0-9]{40})" },
  { id: "dynatrace-token", prefixes: ["dt0c01."], body: "dt0c01\\.(?<body>[A-Z0-9]{24}\\.[A-Z0-9]{64})" },
  { id: "new-relic-key", prefixes: ["NRAK-", "NRJS-", "NRII-"], body: "NR(?:AK-(?<body>[A-Z0-9]{27})|JS-[a-f0-9]{19}|II-[A-Za-z0-9_-]{32})" },
  { id: "flutterwave-key", prefixes: ["FLWSECK", "FLWPUBK"], body: "FLW(?:SECK|PUBK)(?:_TEST)?-(?<body>[a-h0-9]{32})-X" },
  { id: "cloudflare-origin-ca-key", prefixes: ["v1.0-"], body: "v1\\.0-(?<body>[a-f0-9]{24}-[a-f0-9]{146})" },
  { id: "supabase-token", prefixes: ["sbp_", "sb_secret_"], body: "(?:sbp_(?<body>[a-f0-9]{40})|sb_secret_[A-Za-z0-9_-]{30,64})" },
  { id: "groq-api-key", prefixes: ["gsk_"], body: "gsk_(?<body>[A-Za-z0-9]{52})" },
  { id: "perplexity-api-key", prefixes: ["pplx-"], body: "pplx-(?<body>[A-Za-z0-9]{48})" },
  { id: "replicate-token", prefixes: ["r8_"], body: "r8_(?<body>[A-Za-z0-9]{37})" },
  { id: "xai-api-key", prefixes: ["xai-"], body: "xai-(?<body>[A-Za-z0-9]{80})" },
  { id: "notion-token", prefixes: ["ntn_", "secret_"], body: "(?:ntn_(?<body>[0-9]{11}[A-Za-z0-9]{35})|secret_[A-Za-z0-9]{43})", entropy: 3.5 },
  { id: "airtable-token", prefixes: ["pat"], body: "pat(?<body>[A-Za-z0-9]{14}\\.[a-f0-9]{64})" },
  { id: "mapbox-token", prefixes: ["sk.eyJ"], body: "sk\\.eyJ(?<body>[A-Za-z0-9_-]{50,300}\\.[A-Za-z0-9_-]{20,30})" },
  { id: "prefect-api-key", prefixes: ["pnu_"], body: "pnu_(?<body>[A-Za-z0-9]{36})" },
  { id: "readme-api-key", prefixes: ["rdme_"], body: "rdme_(?<body>[a-z0-9]{70})" },
  { id: "ruby-gems-api-key", prefixes: ["rubygems_"], body: "rubygems_(?<body>[a-f0-9]{48})" },
  { id: "clojars-token", prefixes: ["CLOJARS_"], body: "CLOJARS_(?<body>[A-Za-z0-9]{60})" },
  { id: "docker-hub-token", prefixes: ["dckr_pat_", "dckr_oat_"], body: "dckr_(?:pat|oat)_(?<body>[A-Za-z0-9_-]{27,36})" },
  { id: "nuget-api-key", prefixes: ["oy2"], body: "oy2(?<body>[a-z0-9]{43})" },
  { id: "frameio-token", prefixes: ["fio-u-"], body: "fio-u-(?<body>[A-Za-z0-9_=-]{64})" },
  { id: "easypost-key", prefixes: ["EZAK", "EZTK"], body: "EZ[AT]K(?<body>[A-Za-z0-9]{54})" },
  { id: "planetscale-token", prefixes: ["pscale_tkn_", "pscale_pw_", "pscale_oauth_"], body: "pscale_(?:tkn|pw|oauth)_(?<body>[A-Za-z0-9_.=-]{32,64})" },
  { id: "infracost-api-key", prefixes: ["ico-"], body: "ico-(?<body>[A-Za-z0-9]{32})" },
  { id: "scalingo-token", prefixes: ["tk-us-"], body: "tk-us-(?<body>[A-Za-z0-9_-]{48})" },
  {
    id: "onepassword-token",
    prefixes: ["ops_eyJ", "A3-"],
    body: "(?:ops_eyJ(?<body>[A-Za-z0-9+/]{250,4000}={0,3})|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})",
  },
  { id: "google-oauth-secret", prefixes: ["GOCSPX-"], body: "GOCSPX-(?<body>[A-Za-z0-9_-]{28})" },
  { id: "google-oauth-token", prefixes: ["ya29."], body: "ya29\\.(?<body>[A-Za-z0-9_-]{30,2048})" },
  { id: "huggingface-org-token", prefixes: ["api_org_"], body: "api_org_(?<body>[A-Za-z]{34})" },
  { id: "openshift-token", prefixes: ["sha256~"], body: "sha256~(?<body>[A-Za-z0-9_-]{43})" },
  { id: "alibaba-access-key-id", prefixes: ["LTAI"], body: "LTAI(?<body>[A-Za-z0-9]{20})" },
  { id: "tencent-secret-id", prefixes: ["AKID"], body: "AKID(?<body>[A-Za-z0-9]{32})" },
  { id: "sourcegraph-token", prefixes: ["sgp_"], body: "sgp_(?<body>(?:[a-fA-F0-9]{16}_)?[a-fA-F0-9]{40}|local_[a-fA-F0-9]{40})" },
  { id: "contentful-token", prefixes: ["CFPAT-"], body: "CFPAT-(?<body>[A-Za-z0-9_-]{43})" },
  { id: "artifactory-token", prefixes: ["AKCp", "cmVmd"], body: "(?:AKCp(?<body>[A-Za-z0-9]{69})|cmVmd[A-Za-z0-9]{59})", entropy: 4 },
  { id: "dropbox-token", prefixes: ["sl."], body: "sl\\.(?<body>[A-Za-z0-9_-]{130,1400})", entropy: 4 },
  {
    id: "plaid-token",
    prefixes: ["access-sandbox-", "access-development-", "access-production-"],
    body: "access-(?:sandbox|development|production)-(?<body>[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})",
    entropy: 2.5,
  },
  { id: "razorpay-key", prefixes: ["rzp_live_", "rzp_test_"], body: "rzp_(?:live|test)_(?<body>[A-Za-z0-9]{14})" },
  { id: "heroku-token", prefixes: ["HRKU-"], body: "HRKU-(?<body>AA[A-Za-z0-9_-]{58})" },
  { id: "render-api-key", prefixes: ["rnd_"], body: "rnd_(?<body>[A-Za-z0-9]{32})" },
  { id: "buildkite-token", prefixes: ["bkua_"], body: "bkua_(?<body>[a-f0-9]{40})" },
  { id: "circleci-token", prefixes: ["CCIPAT_", "CCIPRJ_"], body: "CCIP(?:AT|RJ)_(?<body>[A-Za-z0-9]{22}_[a-f0-9]{40})" },
  { id: "fly-token", prefixes: ["fo1_", "fm1r_", "fm2_"], body: "(?:fo1_(?<body>[A-Za-z0-9_-]{43})|fm[12][ar]?_[A-Za-z0-9+/]{100,2000}={0,3})" },
  { id: "intra42-secret", prefixes: ["s-s4t2ud-", "s-s4t2af-"], body: "s-s4t2(?:ud|af)-(?<body>[a-f0-9]{64})" },
  { id: "adobe-client-secret", prefixes: ["p8e-"], body: "p8e-(?<body>[A-Za-z0-9]{32})" },
  { id: "clickhouse-cloud-key", prefixes: ["4b1d"], body: "4b1d(?<body>[A-Za-z0-9]{38})", entropy: 3.5 },
  { id: "typeform-token", prefixes: ["tfp_"], body: "tfp_(?<body>[A-Za-z0-9_.=-]{59})" },
];

/** Azure AD client secrets: three characters, a digit, `Q~`, then 31 to 34 more. */
const AZURE_AD_SECRET = regexRule({
  ids: ["azure-ad-client-secret"],
  prefixes: ["Q~"],
  pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~(?<body>[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])/dg,
  classify: random("azure-ad-client-secret", 3),
});

/** Webhook URLs whose path is the credential: Discord, Microsoft Teams (Office 365) connectors. */
const WEBHOOK_URLS = regexRule({
  ids: ["discord-webhook", "teams-webhook"],
  prefixes: ["/api/webhooks/", "/webhookb2/", ".webhook.office.com/"],
  pattern: /(?:(?<discord>discord(?:app)?\.com\/api\/webhooks\/)[0-9]{17,20}\/(?<secret>[A-Za-z0-9_-]{60,80})|(?<teams>webhook\.office\.com\/webhookb2\/)(?<teamsSecret>[A-Za-z0-9@\/_-]{60,300}))/dg,
  classify: (match) => {
    const group = match.indices?.groups;
    if (match.groups?.discord !== undefined && group?.secret) return { start: group.secret[0], end: group.secret[1], rule: "discord-webhook" };
    if (group?.teamsSecret) return { start: group.teamsSecret[0], end: group.teamsSecret[1], rule: "teams-webhook" };
    return undefined;
  },
});

/**
 * For formats whose literal sits in the middle (`<14>.atlasv1.<67>`, `<id>:AA<33>`,
 * `<32 hex>-us12`): the regex starts at the literal, so it is searched for like a prefix rather
 * than tried at every letter, and the part before it is read backwards here, bounded.
 */
const withHead =
  (rule: string, head: RegExp, minEntropy: number): Classify =>
  (match) => {
    const before = match.input.slice(Math.max(0, match.index - 40), match.index);
    const found = head.exec(before);
    if (found === null) return undefined;
    const start = match.index - found[0].length;
    const body = found[0] + (match.groups?.body ?? "");
    if (shannonEntropy(body) < minEntropy || charClasses(body) < 2) return undefined;
    return { start, end: match.index + match[0].length, rule };
  };

/** Terraform Cloud / HCP Terraform tokens: 14 characters, `.atlasv1.`, 60 to 70 more. */
const TERRAFORM = regexRule({
  ids: ["terraform-cloud-token"],
  prefixes: [".atlasv1."],
  pattern: /\.atlasv1\.(?<body>[A-Za-z0-9_=-]{60,70})(?![A-Za-z0-9_=-])/dg,
  classify: withHead("terraform-cloud-token", /(?<![A-Za-z0-9_-])[A-Za-z0-9]{14}$/, 3),
});

/** Telegram bot tokens: the bot's numeric id, `:AA`, then 33 characters. */
const TELEGRAM = regexRule({
  ids: ["telegram-bot-token"],
  prefixes: [":AA"],
  pattern: /:AA(?<body>[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/dg,
  classify: withHead("telegram-bot-token", /(?<![A-Za-z0-9_:-])[0-9]{8,10}$/, 3.5),
});

/** Mailchimp API keys: 32 hex characters and the data centre, `-us1` to `-us99`. */
const MAILCHIMP = regexRule({
  ids: ["mailchimp-api-key"],
  prefixes: ["-us"],
  pattern: /-us[0-9]{1,2}(?![A-Za-z0-9_-])/dg,
  classify: withHead("mailchimp-api-key", /(?<![A-Za-z0-9_-])[a-f0-9]{32}$/, 3),
});

export const VENDOR_RULES: readonly Rule[] = [
  ...VENDORS.map((vendor) =>
    regexRule({
      ids: [vendor.id],
      prefixes: vendor.prefixes,
      pattern: new RegExp(`${B}(?:${vendor.body})${E}`, "dg"),
      classify: random(vendor.id, vendor.entropy ?? 3),
    }),
  ),
  AZURE_AD_SECRET,
  WEBHOOK_URLS,
  TERRAFORM,
  TELEGRAM,
  MAILCHIMP,
];
