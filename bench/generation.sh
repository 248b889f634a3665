#!/usr/bin/env bash
# Generation benchmark: per-row cost of every idgen generator against gen_random_uuid(), nextval()
# and the empty floor, measured in one run in a throwaway cluster. Not a test: it asserts nothing.
# Usage: bash bench/generation.sh [rows] [runs]        (defaults: 2000000 rows, 7 runs)
# The report is printed and saved under bench/reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
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
  PGOPTIONS="-c bench.rows=$rows -c bench.runs=$runs" \
    pg_virtualenv psql -X -q -f bench/generation.sql 2>&1 | grep -v '^Creating new\|^Dropping cluster'
} | tee "$report"
echo "report saved to $report"
