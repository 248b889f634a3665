#!/usr/bin/env bash
# idgen through real client drivers, as applications use them: psycopg 3 (Debian's
# python3-psycopg) and node-postgres (npm pg, the exact version pinned in test/drivers/package.json
# and package-lock.json). Each creates tables with idgen defaults, inserts with parameters and reads
# the ids back as the driver's own types (uuid.UUID / canonical strings; the 28-digit
# distributed_id as decimal.Decimal / a string with every digit), and checks event ids in text and
# binary, public ids under an explicit key, the encoders and SQLSTATEs; see the two scripts in
# test/drivers/.
#
# Installs what is missing first: python3-psycopg, Node.js and npm as Debian packages (as root;
# otherwise deps.sh prints the apt-get command and stops), then node-postgres into
# test/drivers/node_modules with npm ci. Then runs both in a throwaway cluster made by
# pg_virtualenv, over TCP with a password (the drivers read PGHOST, PGPORT, PGUSER, PGPASSWORD and
# PGDATABASE). Prints TAP lines.
#
# --inside runs against whatever server the PG* variables name (the extension must be installed
# there; CREATE EXTENSION is run if needed): bash test/integration/drivers.sh --inside
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
drivers=test/drivers
python=/usr/bin/python3  # Debian's python3-psycopg is on the system Python's path, not a pyenv one

if [ "${1:-}" = "--inside" ]; then
  psql -XAtq -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION IF NOT EXISTS idgen' || echo "not ok - drivers: CREATE EXTENSION idgen"
  run_driver() {  # run_driver <name> <command...>: passes its TAP lines through
    local name=$1 out status
    shift
    out=$(timeout 60 "$@" 2>&1)
    status=$?
    printf '%s\n' "$out"
    # Each script prints a "not ok" line for any failure, also when it stops early; one that died
    # without one (an import error, the time-out) is one more failure.
    if ((status != 0)) && ! grep -q '^not ok ' <<<"$out"; then
      echo "not ok - $name: exited with status $status$( ((status == 124)) && echo ' (timed out after 60 s)')"
    fi
  }
  run_driver psycopg "$python" "$drivers/idgen_psycopg.py"
  if [ -f "$drivers/node_modules/pg/package.json" ]; then
    run_driver node-pg node "$drivers/idgen_node_pg.js"
  else
    echo "not ok - node-pg: node-postgres is not installed in $drivers/node_modules (npm ci failed?)"
  fi
  exit 0
fi

source test/lib/deps.sh
ensure_packages python3-psycopg
# Node.js and npm: Debian's packages unless the machine already has both (NodeSource's nodejs
# package includes npm and conflicts with Debian's npm package, so asking for npm there would
# replace Node.js).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  ensure_packages nodejs npm
fi

# node-postgres at the pinned version; skipped when it is already there (works offline then).
pinned=$(node -p "require('./$drivers/package.json').dependencies.pg")
installed=$(node -p "require('./$drivers/node_modules/pg/package.json').version" 2>/dev/null)
if [ "$installed" != "$pinned" ]; then
  npm_log=$(mktemp)
  if ! (cd "$drivers" && npm ci --no-audit --no-fund --loglevel=error) >"$npm_log" 2>&1; then
    # The --inside part then reports node-pg as not installed (one "not ok").
    echo "# npm ci could not install pg $pinned into $drivers/node_modules:"
    head -n 8 "$npm_log" | sed 's/^/#   /'
  fi
  rm -f "$npm_log"
fi

pg_virtualenv bash "$0" --inside
