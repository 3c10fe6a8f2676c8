import { defineCommand } from "../command.js";
import { ALLOW_UNSCANNED, PUBLISH_FLAGS, SERVER_ENV, WITH_CHANGES } from "../flags.js";

export const publishSpec = defineCommand({
  name: "publish",
  summary: "Encrypt and publish a handoff; print an access-limited share URL.",
  args: "FILE",
  positionals: { min: 1, max: 1, missing: "a FILE to publish" },
  description: `Encrypt FILE on this machine (AES-256-GCM, the key goes in the URL's #fragment, which never
reaches the server), send the ciphertext, and print an access-limited share URL. Secrets are
redacted again before anything is sent; if scanning fails, nothing is sent. The local file is
never changed or deleted, whatever happens.`,
  flags: {
    ...PUBLISH_FLAGS,
    "with-changes": {
      ...WITH_CHANGES,
      description: "Send the uncommitted work with it: the bundle create --with-changes wrote beside FILE, else captured now from this checkout (the caps and secret scan of create --with-changes).",
    },
    "allow-unscanned": ALLOW_UNSCANNED,
    "no-redact": { type: "boolean", description: "Send the text without scanning it for secrets (prints a warning)." },
    passphrase: {
      type: "boolean",
      description:
        "Also require a passphrase to read (asked twice at a prompt, or read from stdin; never argv): the link alone can then neither fetch nor decrypt it. Under about 30 bits it is refused, under 50 warned about. Send it apart from the link.",
    },
  },
  exits: {
    0: "published",
    1: "empty passphrase, or the two typed differ, or changes the secret scan cannot read",
    2: "usage, an out-of-range option, or a passphrase too weak to keep",
    3: "not configured, server unreachable, slow, 5xx, 413, refused",
  },
  notes: SERVER_ENV,
});
