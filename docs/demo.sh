#!/usr/bin/env bash
# The idgen demo: installs what is missing (as root), builds idgen and installs it (as another
# user: uses the same idgen when it is already installed), and runs docs/demo.sql in a throwaway
# PostgreSQL cluster that is dropped afterwards. shared_buffers is small on purpose, so that the
# demo's 20 MB indexes outgrow it as production indexes outgrow theirs; max_wal_size makes
# checkpoints come every few seconds of inserts, as they come every few minutes in production.
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib/deps.sh
ensure_packages "${IDGEN_DEMO_PACKAGES[@]}"
build_and_install || exit 1
pg_virtualenv -t -o shared_buffers=8MB -o max_wal_size=64MB -o min_wal_size=32MB \
  psql -X -q -f docs/demo.sql
