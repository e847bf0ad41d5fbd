#!/usr/bin/env bash
# Browser tests of Menagerie's pages (issue 11): Debian's Chromium driven by playwright-core.
# Installs what they need (node, chromium, the npm lock), builds the release binary unless
# MENAGERIE_BIN names one, and runs every *.test.mjs here with node's test runner.
#   crates/server/tests/browser/run.sh            all the tests
#   crates/server/tests/browser/run.sh widget     only the files whose names start so
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"

need_apt=()
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

cd "$here"
if [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

if [ -z "${MENAGERIE_BIN:-}" ]; then
  (cd "$root" && cargo build --release --quiet -p menagerie)
  export MENAGERIE_BIN="$root/target/release/menagerie"
fi

files=()
for f in "$here"/${1:-}*.test.mjs; do files+=("$f"); done
exec node --test --test-concurrency=1 "${files[@]}"
