#!/usr/bin/env bash
# Every benchmark, one after the other, each in its own throwaway cluster (docs/benchmarks.md):
# generation cost per row, inserts with the index far beyond shared_buffers (CSV and plots),
# ledger verification and CRC-32C throughput. Reports land in bench/reports/. About 15 minutes on
# the 2-core CI machine. Not a test: it asserts nothing.
# Usage: bash bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash bench/generation.sh
bash bench/insert.sh
bash bench/ledger_verify.sh
bash bench/crc32c.sh
