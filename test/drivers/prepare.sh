#!/usr/bin/env bash
# Installs what the client tests need: the drivers test (test/t/031_drivers.pl) python3-psycopg,
# the ORM recipes (test/t/032_orm_recipes.pl) Django, SQLAlchemy and psycopg2, all as Debian
# packages (as root; otherwise deps.sh prints the apt-get command and stops), and Node.js and npm;
# then the npm packages pinned in test/drivers and test/orms (package.json, package-lock.json)
# into each one's node_modules with npm ci (skipped when every pinned version is there: works
# offline then).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source test/lib/deps.sh
ensure_packages python3-psycopg python3-django python3-sqlalchemy python3-psycopg2
# Node.js and npm: Debian's packages unless the machine already has both (NodeSource's nodejs
# package includes npm and conflicts with Debian's npm package, so asking for npm there would
# replace Node.js).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  ensure_packages nodejs npm
fi
for dir in test/drivers test/orms; do
  npm_ci_pinned "$dir"
done
# The client stacks of test/stacks (Go, Java, Ruby, TypeScript): each directory's prepare.sh
# installs and builds what its test needs (a failure there makes that test fail).
for script in test/stacks/*/prepare.sh; do
  [ -f "$script" ] || continue
  bash "$script" || echo "$script failed: its test will report what is missing"
done
exit 0
