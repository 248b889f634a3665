#!/usr/bin/env bash
# Installs what the driver test (test/t/031_drivers.pl) needs: python3-psycopg, Node.js and npm as
# Debian packages (as root; otherwise deps.sh prints the apt-get command and stops), then
# node-postgres at the version pinned in package.json / package-lock.json into
# test/drivers/node_modules with npm ci (skipped when that version is there: works offline then).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
drivers=test/drivers
source test/lib/deps.sh
ensure_packages python3-psycopg
# Node.js and npm: Debian's packages unless the machine already has both (NodeSource's nodejs
# package includes npm and conflicts with Debian's npm package, so asking for npm there would
# replace Node.js).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  ensure_packages nodejs npm
fi
pinned=$(node -p "require('./$drivers/package.json').dependencies.pg")
installed=$(node -p "require('./$drivers/node_modules/pg/package.json').version" 2>/dev/null)
if [ "$installed" != "$pinned" ]; then
  if ! (cd "$drivers" && npm ci --no-audit --no-fund --loglevel=error); then
    # The test then reports node-postgres as not installed.
    echo "npm ci could not install pg $pinned into $drivers/node_modules"
  fi
fi
exit 0
