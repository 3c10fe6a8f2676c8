#!/usr/bin/env bash
# Installs the Handoff plugin the way a user does, from a clone that has been used, with Claude
# Code's own CLI (the npm package @anthropic-ai/claude-code, installed once into a cache: it is
# not a dependency of this project), into a scratch HOME; then checks what the install copied.
#
#   scripts/plugin-install-check.sh            # the committed HEAD of this checkout
#   HANDOFF_CC_CACHE=DIR scripts/plugin-install-check.sh
#
# Needs the npm registry once (to fill the cache); after that Claude Code's plugin commands run
# offline. Not part of `npm test`, which talks to loopback only: run it before a release, or in a
# CI job that may reach the registry. Exits 1 when a manifest fails `claude plugin validate
# --strict`, when the copy holds node_modules, .wrangler, .git, dist/ or the planted secret, or
# when it is larger than 1 MB; 2 when Claude Code's CLI cannot be installed.
set -uo pipefail
top=$(git rev-parse --show-toplevel) || exit 2
cache=${HANDOFF_CC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/handoff-claude-code}
claude=$cache/bin/claude
if [[ ! -x $claude ]]; then
  npm install --global --silent --no-audit --no-fund --prefix "$cache" @anthropic-ai/claude-code >/dev/null 2>&1 || true
fi
[[ -x $claude ]] || { echo "cannot install @anthropic-ai/claude-code into $cache"; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/handoff-plugin-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export HOME=$scratch/home
mkdir -p "$HOME"
status=0

# A used clone: dependencies installed, a local server's state and its operator token next to it.
git clone --quiet "$top" "$scratch/clone"
mkdir -p "$scratch/clone/node_modules/some-dependency" "$scratch/clone/.wrangler/state" "$scratch/clone/dist"
echo "ADMIN_TOKEN=planted-operator-secret" >"$scratch/clone/.wrangler/admin.env"
echo "module.exports = 1" >"$scratch/clone/node_modules/some-dependency/index.js"

for manifest in .claude-plugin/marketplace.json plugin/.claude-plugin/plugin.json; do
  echo "== claude plugin validate --strict $manifest"
  if (cd "$scratch" && "$claude" plugin validate --strict "$scratch/clone/$manifest") >"$scratch/validate.txt" 2>&1; then
    echo "  passed"
  else
    sed 's/^/  /' "$scratch/validate.txt"; status=1
  fi
done

echo "== claude plugin marketplace add <clone>; claude plugin install handoff@handoff"
(cd "$scratch" && "$claude" plugin marketplace add "$scratch/clone" >/dev/null 2>&1 && "$claude" plugin install handoff@handoff 2>&1 | tail -1 | sed 's/^/  /')
copy=$(find "$HOME/.claude/plugins/cache" -mindepth 3 -maxdepth 3 -type d 2>/dev/null | head -1)
[[ -n $copy ]] || { echo "  nothing was installed"; exit 1; }
kib=$(du -sk "$copy" | cut -f1)
echo "== the installed copy: ${kib} KiB on disk ($(du -sb "$copy" | cut -f1) bytes) in $copy"
(cd "$copy" && find . -type f | sort | sed 's/^\.\//  /')
for unwanted in node_modules .wrangler .git dist; do
  [[ -e $copy/$unwanted ]] && { echo "  holds $unwanted"; status=1; }
done
grep -rqs planted-operator-secret "$copy" && { echo "  holds the planted operator secret"; status=1; }
(( kib < 1024 )) || { echo "  larger than 1 MB"; status=1; }
for wanted in .claude-plugin/plugin.json .codex-plugin/plugin.json .mcp.json hooks/hooks.json skills/handoff/SKILL.md; do
  [[ -f $copy/$wanted ]] || { echo "  lacks $wanted"; status=1; }
done
exit $status
