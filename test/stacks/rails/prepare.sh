#!/usr/bin/env bash
# Installs what the Active Record recipe needs (test/t/035_rails.pl, docs/rails-activerecord.md):
# Ruby, Active Record 6.1 and ruby-pg from Debian, as root (otherwise deps.sh prints the apt-get
# command and stops). Nothing is compiled: the test runs the recipe with Debian's ruby, and the
# recipe finds pg_dump and psql (for structure.sql) on the PATH of the PostgreSQL it tests.
# With the packages there it only checks them.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source test/lib/deps.sh
ensure_packages ruby ruby-activerecord ruby-pg
