#!/usr/bin/env bash
# Installs what the ORM recipes test (test/t/032_orm_recipes.pl) needs: Django, SQLAlchemy and
# psycopg2 as Debian packages (as root; otherwise deps.sh prints the apt-get command and stops),
# Node.js and npm, and the npm packages pinned here (Sequelize: package.json, package-lock.json)
# into node_modules with npm ci (skipped when every pinned version is there: works offline then).
# test/run-all.sh runs it, with the other client programs' prepare.sh, before the TAP suite.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source test/lib/deps.sh
ensure_packages python3-django python3-sqlalchemy python3-psycopg2
ensure_node
npm_ci_pinned test/orms
