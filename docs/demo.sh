#!/usr/bin/env bash
# The idgen demo: installs what is missing (as root), builds and installs idgen, and runs
# docs/demo.sql in a throwaway PostgreSQL cluster that is dropped afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib/deps.sh
ensure_packages "${IDGEN_DEMO_PACKAGES[@]}"
build_and_install || exit 1
pg_virtualenv psql -X -q -f docs/demo.sql
