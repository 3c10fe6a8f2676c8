import { isPlaceholder } from "./entropy.js";
import type { Rule, RuleContext } from "./types.js";

/**
 * Passwords given to a command on its command line: `mysql -pS3cret`, `sshpass -p S3cret`,
 * `redis-cli -a S3cret`, `curl -u user:S3cret`, `docker login -p S3cret`, `smbclient -U user%S3cret`,
 * `openssl ... -passin pass:S3cret`. A short flag means a password only for the command that
 * defines it so (`docker run -p 8080:80` is a port, `mkdir -p` a switch), so the rule first finds a
 * known command, then reads that command's arguments up to the end of the line or of the command.
 * Long flags (`--password value`) are the assignment rule's.
 *
 * Linear: each command name found starts one forward walk, bounded by the line, and the next
 * search starts where that walk ended.
 */

interface CommandFlags {
  /** `-pVALUE`: the flag with the value attached (`-p` alone prompts, and is no value). */
  attached?: string[];
  /** `-p VALUE` (and `-pVALUE` too when also listed in attached). */
  separate?: string[];
  /** `--flag=VALUE` and `--flag VALUE`. */
  long?: string[];
  /** The value is `user:password` (curl) or `user%password` (smbclient): only the password goes. */
  userSeparator?: ":" | "%";
  /** Only in a line that also says this (`docker login`, not `docker run`). */
  needs?: RegExp;
}

const MYSQL: CommandFlags = { attached: ["-p"], long: ["--password"] };
const MONGO: CommandFlags = { separate: ["-p"], long: ["--password"] };
const REDIS: CommandFlags = { separate: ["-a"], long: ["--pass"] };
const LDAP: CommandFlags = { separate: ["-w"] };
const REGISTRY_LOGIN: CommandFlags = { separate: ["-p"], long: ["--password"], needs: /\blogin\b|\brepo[ \t]+add\b/ };

const COMMANDS: Record<string, CommandFlags> = {
  mysql: MYSQL,
  mysqldump: MYSQL,
  mysqladmin: MYSQL,
  mysqlimport: MYSQL,
  mysqlcheck: MYSQL,
  mysqlsh: MYSQL,
  mariadb: MYSQL,
  "mariadb-dump": MYSQL,
  sshpass: { attached: ["-p"], separate: ["-p"] },
  "redis-cli": REDIS,
  "keydb-cli": REDIS,
  "valkey-cli": REDIS,
  mongo: MONGO,
  mongosh: MONGO,
  mongodump: MONGO,
  mongorestore: MONGO,
  mongoexport: MONGO,
  mongoimport: MONGO,
  sqlcmd: { separate: ["-P"] },
  bcp: { separate: ["-P"] },
  ldapsearch: LDAP,
  ldapmodify: LDAP,
  ldapadd: LDAP,
  ldapdelete: LDAP,
  ldapwhoami: LDAP,
  zip: { separate: ["-P"] },
  unzip: { separate: ["-P"] },
  "7z": { attached: ["-p"] },
  "7za": { attached: ["-p"] },
  docker: REGISTRY_LOGIN,
  podman: REGISTRY_LOGIN,
  nerdctl: REGISTRY_LOGIN,
  buildah: REGISTRY_LOGIN,
  skopeo: REGISTRY_LOGIN,
  helm: REGISTRY_LOGIN,
  oras: REGISTRY_LOGIN,
  az: REGISTRY_LOGIN,
  twine: { separate: ["-p"], long: ["--password"] },
  curl: { separate: ["-u", "--user", "-U", "--proxy-user"], attached: ["-u"], userSeparator: ":" },
  wget: { long: ["--password", "--http-password", "--ftp-password", "--proxy-password"] },
  smbclient: { separate: ["-U", "--user"], attached: ["-U"], userSeparator: "%" },
  rpcclient: { separate: ["-U", "--user"], attached: ["-U"], userSeparator: "%" },
  openssl: {},
};

const COMMAND = new RegExp(
  `(?<![A-Za-z0-9_.-])(?:${Object.keys(COMMANDS)
    .map((name) => name.replace(/[.-]/g, "\\$&"))
    .join("|")})(?=[ \\t])`,
  "g",
);
/** How far one command's arguments are read. */
const MAX_ARGS = 4096;

interface Token {
  /** The word without its quotes. */
  value: string;
  /** Where `value[i]` is in the text: `value` is contiguous there except after a flag glued to a quote. */
  at(i: number): number;
}

const plain = (value: string, start: number): Token => ({ value, at: (i) => start + i });

/**
 * Reads shell-like words from `at` to the end of the line, the command (`|`, `;`, `&`, a subshell) or the next
 * known command name, bounded.
 */
function readArgs(text: string, at: number): { tokens: Token[]; end: number } {
  const tokens: Token[] = [];
  const limit = Math.min(text.length, at + MAX_ARGS);
  let i = at;
  while (i < limit) {
    const ch = text[i]!;
    if (ch === "\n" || ch === "\r" || ch === "|" || ch === ";" || ch === "&" || ch === "(" || ch === ")" || ch === "`") break;
    if (ch === " " || ch === "\t" || ch === "\\") {
      i++;
      continue;
    }
    const start = i;
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < limit && text[j] !== ch && text[j] !== "\n") j++;
      if (text[j] !== ch) break; // an unterminated quote: not a command line we can read
      tokens.push(plain(text.slice(i + 1, j), i + 1));
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < limit && !/[\s|;&"'()`]/.test(text[j]!)) j++;
    // Another known command starts its own argument list (two commands on one line).
    if (Object.hasOwn(COMMANDS, text.slice(i, j)) && tokens.length > 0) {
      i = start;
      break;
    }
    // `-p"S3cret"`: a quoted value attached to a flag.
    if ((text[j] === '"' || text[j] === "'") && j > i) {
      const quote = text[j]!;
      let k = j + 1;
      while (k < limit && text[k] !== quote && text[k] !== "\n") k++;
      if (text[k] === quote) {
        const flag = j - i;
        tokens.push({ value: text.slice(i, j) + text.slice(j + 1, k), at: (n) => (n < flag ? start + n : j + 1 + (n - flag)) });
        i = k + 1;
        continue;
      }
    }
    tokens.push(plain(text.slice(i, j), start));
    i = j;
  }
  return { tokens, end: i };
}

/** A value worth redacting: present, not another flag, not a reference or placeholder. */
function isPasswordValue(value: string): boolean {
  if (value.length < 3 || value.startsWith("-") || /^[$<%{]/.test(value)) return false;
  return !isPlaceholder(value);
}

export const CLI_PASSWORD_RULE: Rule = {
  ids: ["cli-password"],
  docs: {
    "cli-password": {
      what: "a password on a command line, for the commands whose flag means one: `mysql -p…`, `sshpass -p`, `redis-cli -a`, `mongosh -p`, `sqlcmd -P`, `ldapsearch -w`, `zip -P`, `7z -p…`, `docker login -p`, `curl -u user:…`, `wget --password=`, `smbclient -U user%…`, `openssl -passin pass:…`, …",
      shape: "`COMMAND … FLAG …`",
      stays: "the command, the flag, the user",
    },
  },
  prefixes: Object.keys(COMMANDS),
  find(ctx: RuleContext) {
    const { text } = ctx;
    const command = new RegExp(COMMAND.source, "g");
    let count = 0;
    for (let match = command.exec(text); match !== null; match = command.exec(text)) {
      if ((++count & 0x3ff) === 0) ctx.tick();
      const flags = COMMANDS[match[0]]!;
      const { tokens, end } = readArgs(text, match.index + match[0].length);
      command.lastIndex = Math.max(end, match.index + match[0].length);
      if (flags.needs && !flags.needs.test(text.slice(match.index, end))) continue;
      const emit = (token: Token, offset: number, value: string) => {
        let from = offset;
        if (flags.userSeparator !== undefined) {
          const cut = value.indexOf(flags.userSeparator);
          if (cut < 0) return;
          from += cut + 1;
          value = value.slice(cut + 1);
        }
        if (isPasswordValue(value)) ctx.emit(token.at(from), token.at(from + value.length - 1) + 1, "cli-password");
      };
      for (let t = 0; t < tokens.length; t++) {
        const token = tokens[t]!;
        const word = token.value;
        const next = tokens[t + 1];
        // openssl: `-passin pass:S3cret`, `-passout pass:S3cret`, `-pass pass:S3cret`.
        if (match[0] === "openssl" && /^-pass(?:in|out)?$/.test(word) && next?.value.startsWith("pass:")) {
          emit(next, 5, next.value.slice(5));
          continue;
        }
        if (flags.separate?.includes(word) && next !== undefined) {
          emit(next, 0, next.value);
          t++;
          continue;
        }
        const attached = flags.attached?.find((flag) => word.startsWith(flag) && word.length > flag.length && !word.startsWith("--"));
        if (attached !== undefined) {
          emit(token, attached.length, word.slice(attached.length));
          continue;
        }
        const long = flags.long?.find((flag) => word === flag || word.startsWith(`${flag}=`));
        if (long !== undefined) {
          if (word === long && next !== undefined) {
            emit(next, 0, next.value);
            t++;
          } else if (word !== long) emit(token, long.length + 1, word.slice(long.length + 1));
        }
      }
    }
  },
};
