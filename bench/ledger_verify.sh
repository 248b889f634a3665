#!/usr/bin/env bash
# Ledger verification benchmark: builds a ledger of 1 000 000 events through the ledger_append
# trigger in a throwaway cluster, then times idgen.ledger_verify over it against a scan, a sort
# and jsonb output of the same rows (bench/ledger_verify.sql). Target: the whole ledger verified
# in under 2 s. Not a test: it asserts nothing.
# Usage: bash bench/ledger_verify.sh [events] [runs]      (defaults: 1000000 events, 7 runs)
# The report is printed and saved under bench/reports/.
set -euo pipefail
cd "$(dirname "$0")/.."

source test/lib/deps.sh
ensure_packages "${IDGEN_DEMO_PACKAGES[@]}"
build_and_install || exit 1

events=${1:-1000000}
runs=${2:-7}
mkdir -p bench/reports
report=bench/reports/ledger-verify-$(date -u +%Y%m%d-%H%M%S).txt
{
  echo "idgen ledger verification benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "server: $(pg_config --version); events: $events; runs: $runs; CRC-32C: $(grep -q sse4_2 /proc/cpuinfo && echo 'SSE 4.2 instruction' || echo tables)"
  PGOPTIONS="-c bench.events=$events -c bench.runs=$runs" \
    pg_virtualenv -t psql -X -q -f bench/ledger_verify.sql 2>&1 | grep -v '^Creating new\|^Dropping cluster'
} | tee "$report"
echo "report saved to $report"
