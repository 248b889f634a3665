#!/usr/bin/env bash
# Generation benchmark: per-row cost of every idgen generator against gen_random_uuid(), nextval()
# and the empty floor, measured in one run in a throwaway cluster with idgen loaded per backend,
# then the generators on server-wide state (idgen.snowflake() among them) in a second one with
# idgen preloaded, each against the baselines of its own cluster. Not a test: it asserts nothing.
# Usage: bash bench/generation.sh [rows] [runs]        (defaults: 2000000 rows, 7 runs)
# The report is printed and saved under bench/reports/.
set -euo pipefail
cd "$(dirname "$0")/.."

# Inside the throwaway cluster: a public id key file (the public example key of
# docs/public-id.md), then the measurements.
if [ "${1:-}" = "--inside" ]; then
  key_file=$(mktemp -d)/public_id.key
  chmod 755 "$(dirname "$key_file")"
  echo 'k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=' >"$key_file"
  chown "$(stat -c %U "$(psql -XAtq -c 'SHOW data_directory')")" "$key_file"
  chmod 600 "$key_file"
  psql -XAtq -c 'CREATE EXTENSION IF NOT EXISTS idgen' \
    -c "ALTER SYSTEM SET idgen.public_id_key_file = '$key_file'" \
    -c 'SELECT pg_reload_conf()' >/dev/null
  for _ in $(seq 1 100); do  # a reload reaches new sessions asynchronously
    [ "$(psql -XAtq -c 'SELECT idgen.public_id_to_bigint(idgen.public_id(1))' 2>&1)" = 1 ] && break
    sleep 0.1
  done
  psql -X -q -f bench/generation.sql
  rm -rf "$(dirname "$key_file")"
  exit
fi

source test/lib/deps.sh
ensure_packages "${IDGEN_DEMO_PACKAGES[@]}"
build_and_install || exit 1

rows=${1:-2000000}
runs=${2:-7}
mkdir -p bench/reports
report=bench/reports/generation-$(date -u +%Y%m%d-%H%M%S).txt
{
  echo "idgen generation benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "server: $(pg_config --version); rows per run: $rows; runs: $runs"
  echo
  echo "== idgen loaded per backend (the default) =="
  PGOPTIONS="-c bench.rows=$rows -c bench.runs=$runs -c bench.scope=backend" \
    pg_virtualenv -t bash bench/generation.sh --inside 2>&1 | grep -v '^Creating new\|^Dropping cluster'
  echo
  echo "== idgen preloaded (server-wide generator state; idgen.snowflake() needs it) =="
  PGOPTIONS="-c bench.rows=$rows -c bench.runs=$runs -c bench.scope=server" \
    pg_virtualenv -t -o shared_preload_libraries=idgen bash bench/generation.sh --inside 2>&1 |
    grep -v '^Creating new\|^Dropping cluster'
} | tee "$report"
echo "report saved to $report"
