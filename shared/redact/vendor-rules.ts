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
  /** For docs/redaction.md's table: what the family is, and its shape in words. */
  what: string;
  shape: string;
  prefixes: string[];
  /** Source without the boundaries; compiled with `dg` (and `i` when `caseInsensitive`). */
  body: string;
  entropy?: number;
  caseInsensitive?: boolean;
}

/** One row per family; the `body` group is what the entropy check looks at. */
export const VENDORS: readonly Vendor[] = [
  {
    id: "handoff-token",
    what: "Handoff's own owner, team and publish tokens (shared/ids/tokens.ts)",
    shape: "`hdo_`, `hdt_`, `hdp_` + 43 base64url",
    prefixes: ["hdo_", "hdt_", "hdp_"],
    body: "hd[otp]_(?<body>[A-Za-z0-9_-]{43})",
    entropy: 3.5,
  },
  { id: "anthropic-admin-key", what: "Anthropic admin key", shape: "`sk-ant-admin01-` + 80 to 120", prefixes: ["sk-ant-admin01-"], body: "sk-ant-admin01-[A-Za-z0-9_-]{80,120}" },
  {
    id: "shopify-token",
    what: "Shopify access tokens and shared secrets",
    shape: "`shpat_`, `shpca_`, `shppa_`, `shpss_` + 32 hex",
    prefixes: ["shpat_", "shpca_", "shppa_", "shpss_"],
    body: "shp(?:at|ca|pa|ss)_(?<body>[a-fA-F0-9]{32})",
  },
  {
    id: "digitalocean-token",
    what: "DigitalOcean personal, OAuth and refresh tokens",
    shape: "`dop_v1_`, `doo_v1_`, `dor_v1_` + 64 hex",
    prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"],
    body: "do[por]_v1_(?<body>[a-f0-9]{64})",
  },
  {
    id: "doppler-token",
    what: "Doppler tokens",
    shape: "`dp.pt.`, `dp.st.`, `dp.sa.`, `dp.ct.`, `dp.scim.` + 40 to 44",
    prefixes: ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim."],
    body: "dp\\.(?:pt|st|sa|ct|scim)\\.(?<body>[A-Za-z0-9]{40,44})",
  },
  { id: "databricks-token", what: "Databricks personal access token", shape: "`dapi` + 32 hex", prefixes: ["dapi"], body: "dapi(?<body>[a-f0-9]{32})(?:-\\d)?" },
  { id: "postman-api-key", what: "Postman API key", shape: "`PMAK-` + 24 hex + `-` + 34 hex", prefixes: ["PMAK-"], body: "PMAK-(?<body>[a-f0-9]{24}-[a-f0-9]{34})" },
  {
    id: "grafana-token",
    what: "Grafana Cloud and service-account tokens",
    shape: "`glc_` + base64; `glsa_` + 32 + `_` + 8 hex",
    prefixes: ["glc_", "glsa_"],
    body: "(?:glc_(?<body>[A-Za-z0-9+/]{32,400}={0,2})|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})",
  },
  { id: "linear-api-key", what: "Linear API key", shape: "`lin_api_` + 40", prefixes: ["lin_api_"], body: "lin_api_(?<body>[A-Za-z0-9]{40})" },
  { id: "pulumi-token", what: "Pulumi access token", shape: "`pul-` + 40 hex", prefixes: ["pul-"], body: "pul-(?<body>[a-f0-9]{40})" },
  { id: "atlassian-api-token", what: "Atlassian API token", shape: "`ATATT3` + 150 to 250", prefixes: ["ATATT3"], body: "ATATT3(?<body>[A-Za-z0-9_=-]{150,250})" },
  {
    id: "hashicorp-vault-token",
    what: "HashiCorp Vault service, batch and recovery tokens",
    shape: "`hvs.`, `hvb.`, `hvr.` + 24 or more",
    prefixes: ["hvs.", "hvb.", "hvr."],
    body: "hv[sbr]\\.(?<body>[A-Za-z0-9_-]{24,200})",
  },
  {
    id: "sentry-token",
    what: "Sentry organisation and user tokens",
    shape: "`sntrys_eyJ…`; `sntryu_` + 64 hex",
    prefixes: ["sntrys_", "sntryu_"],
    body: "(?:sntrys_(?<body>eyJ[A-Za-z0-9+/=_-]{40,400})|sntryu_[a-f0-9]{64})",
  },
  { id: "stripe-webhook-secret", what: "Stripe webhook signing secret", shape: "`whsec_` + 32 to 64", prefixes: ["whsec_"], body: "whsec_(?<body>[A-Za-z0-9+/]{32,64})" },
  {
    id: "square-token",
    what: "Square access tokens and OAuth secrets",
    shape: "`sq0atp-` + 22, `sq0csp-` + 43, `EAAA` + 60",
    prefixes: ["sq0atp-", "sq0csp-", "EAAA"],
    body: "(?:sq0atp-(?<body>[A-Za-z0-9_-]{22})|sq0csp-[A-Za-z0-9_-]{43}|EAAA[A-Za-z0-9_-]{60})",
  },
  { id: "shippo-token", what: "Shippo API token", shape: "`shippo_live_`, `shippo_test_` + 40 hex", prefixes: ["shippo_live_", "shippo_test_"], body: "shippo_(?:live|test)_(?<body>[a-fA-F0-9]{40})" },
  { id: "dynatrace-token", what: "Dynatrace API token", shape: "`dt0c01.` + 24 + `.` + 64", prefixes: ["dt0c01."], body: "dt0c01\\.(?<body>[A-Z0-9]{24}\\.[A-Z0-9]{64})" },
  {
    id: "new-relic-key",
    what: "New Relic user, browser and insert keys",
    shape: "`NRAK-` + 27, `NRJS-` + 19 hex, `NRII-` + 32",
    prefixes: ["NRAK-", "NRJS-", "NRII-"],
    body: "NR(?:AK-(?<body>[A-Z0-9]{27})|JS-[a-f0-9]{19}|II-[A-Za-z0-9_-]{32})",
  },
  {
    id: "flutterwave-key",
    what: "Flutterwave keys",
    shape: "`FLWSECK-` or `FLWPUBK-` (optionally `_TEST`) + 32 + `-X`",
    prefixes: ["FLWSECK", "FLWPUBK"],
    body: "FLW(?:SECK|PUBK)(?:_TEST)?-(?<body>[a-h0-9]{32})-X",
  },
  { id: "cloudflare-origin-ca-key", what: "Cloudflare origin CA key", shape: "`v1.0-` + 24 hex + `-` + 146 hex", prefixes: ["v1.0-"], body: "v1\\.0-(?<body>[a-f0-9]{24}-[a-f0-9]{146})" },
  {
    id: "supabase-token",
    what: "Supabase access token and secret key",
    shape: "`sbp_` + 40 hex; `sb_secret_` + 30 to 64",
    prefixes: ["sbp_", "sb_secret_"],
    body: "(?:sbp_(?<body>[a-f0-9]{40})|sb_secret_[A-Za-z0-9_-]{30,64})",
  },
  { id: "groq-api-key", what: "Groq API key", shape: "`gsk_` + 52", prefixes: ["gsk_"], body: "gsk_(?<body>[A-Za-z0-9]{52})" },
  { id: "perplexity-api-key", what: "Perplexity API key", shape: "`pplx-` + 48", prefixes: ["pplx-"], body: "pplx-(?<body>[A-Za-z0-9]{48})" },
  { id: "replicate-token", what: "Replicate API token", shape: "`r8_` + 37", prefixes: ["r8_"], body: "r8_(?<body>[A-Za-z0-9]{37})" },
  { id: "xai-api-key", what: "xAI API key", shape: "`xai-` + 80", prefixes: ["xai-"], body: "xai-(?<body>[A-Za-z0-9]{80})" },
  {
    id: "notion-token",
    what: "Notion integration tokens",
    shape: "`ntn_` + 11 digits + 35; `secret_` + 43",
    prefixes: ["ntn_", "secret_"],
    body: "(?:ntn_(?<body>[0-9]{11}[A-Za-z0-9]{35})|secret_[A-Za-z0-9]{43})",
    entropy: 3.5,
  },
  { id: "airtable-token", what: "Airtable personal access token", shape: "`pat` + 14 + `.` + 64 hex", prefixes: ["pat"], body: "pat(?<body>[A-Za-z0-9]{14}\\.[a-f0-9]{64})" },
  { id: "mapbox-token", what: "Mapbox secret token", shape: "`sk.eyJ` + base64url + `.` + 20 to 30", prefixes: ["sk.eyJ"], body: "sk\\.eyJ(?<body>[A-Za-z0-9_-]{50,300}\\.[A-Za-z0-9_-]{20,30})" },
  { id: "prefect-api-key", what: "Prefect API key", shape: "`pnu_` + 36", prefixes: ["pnu_"], body: "pnu_(?<body>[A-Za-z0-9]{36})" },
  { id: "readme-api-key", what: "ReadMe API key", shape: "`rdme_` + 70", prefixes: ["rdme_"], body: "rdme_(?<body>[a-z0-9]{70})" },
  { id: "ruby-gems-api-key", what: "RubyGems API key", shape: "`rubygems_` + 48 hex", prefixes: ["rubygems_"], body: "rubygems_(?<body>[a-f0-9]{48})" },
  { id: "clojars-token", what: "Clojars deploy token", shape: "`CLOJARS_` + 60", prefixes: ["CLOJARS_"], body: "CLOJARS_(?<body>[A-Za-z0-9]{60})" },
  {
    id: "docker-hub-token",
    what: "Docker Hub personal and organisation access tokens",
    shape: "`dckr_pat_`, `dckr_oat_` + 27 to 36",
    prefixes: ["dckr_pat_", "dckr_oat_"],
    body: "dckr_(?:pat|oat)_(?<body>[A-Za-z0-9_-]{27,36})",
  },
  { id: "nuget-api-key", what: "NuGet API key", shape: "`oy2` + 43 lower-case letters and digits", prefixes: ["oy2"], body: "oy2(?<body>[a-z0-9]{43})" },
  { id: "frameio-token", what: "Frame.io developer token", shape: "`fio-u-` + 64", prefixes: ["fio-u-"], body: "fio-u-(?<body>[A-Za-z0-9_=-]{64})" },
  { id: "easypost-key", what: "EasyPost production and test keys", shape: "`EZAK`, `EZTK` + 54", prefixes: ["EZAK", "EZTK"], body: "EZ[AT]K(?<body>[A-Za-z0-9]{54})" },
  {
    id: "planetscale-token",
    what: "PlanetScale service tokens, passwords and OAuth tokens",
    shape: "`pscale_tkn_`, `pscale_pw_`, `pscale_oauth_` + 32 to 64",
    prefixes: ["pscale_tkn_", "pscale_pw_", "pscale_oauth_"],
    body: "pscale_(?:tkn|pw|oauth)_(?<body>[A-Za-z0-9_.=-]{32,64})",
  },
  { id: "infracost-api-key", what: "Infracost API key", shape: "`ico-` + 32", prefixes: ["ico-"], body: "ico-(?<body>[A-Za-z0-9]{32})" },
  { id: "scalingo-token", what: "Scalingo API token", shape: "`tk-us-` + 48", prefixes: ["tk-us-"], body: "tk-us-(?<body>[A-Za-z0-9_-]{48})" },
  {
    id: "onepassword-token",
    what: "1Password service-account token and secret key",
    shape: "`ops_eyJ` + base64; `A3-` + dash-separated groups",
    prefixes: ["ops_eyJ", "A3-"],
    body: "(?:ops_eyJ(?<body>[A-Za-z0-9+/]{250,4000}={0,3})|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})",
  },
  { id: "google-oauth-secret", what: "Google OAuth client secret", shape: "`GOCSPX-` + 28", prefixes: ["GOCSPX-"], body: "GOCSPX-(?<body>[A-Za-z0-9_-]{28})" },
  { id: "google-oauth-token", what: "Google OAuth access token", shape: "`ya29.` + 30 or more", prefixes: ["ya29."], body: "ya29\\.(?<body>[A-Za-z0-9_-]{30,2048})" },
  { id: "huggingface-org-token", what: "Hugging Face organisation token", shape: "`api_org_` + 34 letters", prefixes: ["api_org_"], body: "api_org_(?<body>[A-Za-z]{34})" },
  { id: "openshift-token", what: "OpenShift user token", shape: "`sha256~` + 43", prefixes: ["sha256~"], body: "sha256~(?<body>[A-Za-z0-9_-]{43})" },
  { id: "alibaba-access-key-id", what: "Alibaba Cloud access key id", shape: "`LTAI` + 20", prefixes: ["LTAI"], body: "LTAI(?<body>[A-Za-z0-9]{20})" },
  { id: "tencent-secret-id", what: "Tencent Cloud secret id", shape: "`AKID` + 32", prefixes: ["AKID"], body: "AKID(?<body>[A-Za-z0-9]{32})" },
  {
    id: "sourcegraph-token",
    what: "Sourcegraph access token",
    shape: "`sgp_` + 40 hex (optionally after 16 hex and `_`, or `local_`)",
    prefixes: ["sgp_"],
    body: "sgp_(?<body>(?:[a-fA-F0-9]{16}_)?[a-fA-F0-9]{40}|local_[a-fA-F0-9]{40})",
  },
  { id: "contentful-token", what: "Contentful personal access token", shape: "`CFPAT-` + 43", prefixes: ["CFPAT-"], body: "CFPAT-(?<body>[A-Za-z0-9_-]{43})" },
  {
    id: "artifactory-token",
    what: "JFrog Artifactory API key and reference token",
    shape: "`AKCp` + 69; `cmVmd` + 59",
    prefixes: ["AKCp", "cmVmd"],
    body: "(?:AKCp(?<body>[A-Za-z0-9]{69})|cmVmd[A-Za-z0-9]{59})",
    entropy: 4,
  },
  { id: "dropbox-token", what: "Dropbox short-lived access token", shape: "`sl.` + 130 or more", prefixes: ["sl."], body: "sl\\.(?<body>[A-Za-z0-9_-]{130,1400})", entropy: 4 },
  {
    id: "plaid-token",
    what: "Plaid access token",
    shape: "`access-sandbox-`, `access-development-`, `access-production-` + a UUID",
    prefixes: ["access-sandbox-", "access-development-", "access-production-"],
    body: "access-(?:sandbox|development|production)-(?<body>[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})",
    entropy: 2.5,
  },
  { id: "razorpay-key", what: "Razorpay key id", shape: "`rzp_live_`, `rzp_test_` + 14", prefixes: ["rzp_live_", "rzp_test_"], body: "rzp_(?:live|test)_(?<body>[A-Za-z0-9]{14})" },
  { id: "heroku-token", what: "Heroku API key", shape: "`HRKU-AA` + 58", prefixes: ["HRKU-"], body: "HRKU-(?<body>AA[A-Za-z0-9_-]{58})" },
  { id: "render-api-key", what: "Render API key", shape: "`rnd_` + 32", prefixes: ["rnd_"], body: "rnd_(?<body>[A-Za-z0-9]{32})" },
  { id: "buildkite-token", what: "Buildkite user access token", shape: "`bkua_` + 40 hex", prefixes: ["bkua_"], body: "bkua_(?<body>[a-f0-9]{40})" },
  {
    id: "circleci-token",
    what: "CircleCI personal and project API tokens",
    shape: "`CCIPAT_`, `CCIPRJ_` + 22 + `_` + 40 hex",
    prefixes: ["CCIPAT_", "CCIPRJ_"],
    body: "CCIP(?:AT|RJ)_(?<body>[A-Za-z0-9]{22}_[a-f0-9]{40})",
  },
  {
    id: "fly-token",
    what: "Fly.io tokens",
    shape: "`fo1_` + 43; `fm1r_`, `fm2_` + base64",
    prefixes: ["fo1_", "fm1r_", "fm2_"],
    body: "(?:fo1_(?<body>[A-Za-z0-9_-]{43})|fm[12][ar]?_[A-Za-z0-9+/]{100,2000}={0,3})",
  },
  { id: "intra42-secret", what: "42 (intra) client secret", shape: "`s-s4t2ud-`, `s-s4t2af-` + 64 hex", prefixes: ["s-s4t2ud-", "s-s4t2af-"], body: "s-s4t2(?:ud|af)-(?<body>[a-f0-9]{64})" },
  { id: "adobe-client-secret", what: "Adobe client secret", shape: "`p8e-` + 32", prefixes: ["p8e-"], body: "p8e-(?<body>[A-Za-z0-9]{32})" },
  { id: "clickhouse-cloud-key", what: "ClickHouse Cloud secret key", shape: "`4b1d` + 38", prefixes: ["4b1d"], body: "4b1d(?<body>[A-Za-z0-9]{38})", entropy: 3.5 },
  { id: "typeform-token", what: "Typeform personal token", shape: "`tfp_` + 59", prefixes: ["tfp_"], body: "tfp_(?<body>[A-Za-z0-9_.=-]{59})" },
];

/** Azure AD client secrets: three characters, a digit, `Q~`, then 31 to 34 more. */
const AZURE_AD_SECRET = regexRule({
  ids: ["azure-ad-client-secret"],
  docs: { "azure-ad-client-secret": { what: "Azure AD (Entra ID) client secret", shape: "three characters, a digit, `Q~`, then 31 to 34 more" } },
  prefixes: ["Q~"],
  pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~(?<body>[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])/dg,
  classify: random("azure-ad-client-secret", 3),
});

/** Webhook URLs whose path is the credential: Discord, Microsoft Teams (Office 365) connectors. */
const WEBHOOK_URLS = regexRule({
  ids: ["discord-webhook", "teams-webhook"],
  docs: {
    "discord-webhook": { what: "Discord webhook token", shape: "`discord.com/api/webhooks/` + the numeric id + `/` + 60 to 80", stays: "the URL and the id" },
    "teams-webhook": { what: "Microsoft Teams (Office 365) incoming webhook path", shape: "`….webhook.office.com/webhookb2/` + the path", stays: "the host" },
  },
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
  docs: { "terraform-cloud-token": { what: "Terraform Cloud / HCP Terraform token", shape: "14 letters and digits + `.atlasv1.` + 60 to 70" } },
  prefixes: [".atlasv1."],
  pattern: /\.atlasv1\.(?<body>[A-Za-z0-9_=-]{60,70})(?![A-Za-z0-9_=-])/dg,
  classify: withHead("terraform-cloud-token", /(?<![A-Za-z0-9_-])[A-Za-z0-9]{14}$/, 3),
});

/** Telegram bot tokens: the bot's numeric id, `:AA`, then 33 characters. */
const TELEGRAM = regexRule({
  ids: ["telegram-bot-token"],
  docs: { "telegram-bot-token": { what: "Telegram bot token", shape: "the bot's numeric id + `:AA` + 33" } },
  prefixes: [":AA"],
  pattern: /:AA(?<body>[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/dg,
  classify: withHead("telegram-bot-token", /(?<![A-Za-z0-9_:-])[0-9]{8,10}$/, 3.5),
});

/** Mailchimp API keys: 32 hex characters and the data centre, `-us1` to `-us99`. */
const MAILCHIMP = regexRule({
  ids: ["mailchimp-api-key"],
  docs: { "mailchimp-api-key": { what: "Mailchimp API key", shape: "32 hex + `-us` and the data centre's number" } },
  prefixes: ["-us"],
  pattern: /-us[0-9]{1,2}(?![A-Za-z0-9_-])/dg,
  classify: withHead("mailchimp-api-key", /(?<![A-Za-z0-9_-])[a-f0-9]{32}$/, 3),
});

export const VENDOR_RULES: readonly Rule[] = [
  ...VENDORS.map((vendor) =>
    regexRule({
      ids: [vendor.id],
      docs: { [vendor.id]: { what: vendor.what, shape: vendor.shape } },
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
