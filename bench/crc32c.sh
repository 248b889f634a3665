#!/usr/bin/env bash
# CRC-32C throughput on one core (Google Benchmark, bench/crc32c_benchmark.cpp): the dispatching
# path (the CPU's crc32 instruction where present) and the portable tables, 64 B to 1 MiB.
# Target (docs/benchmarks.md): at least 5 GB/s for large inputs. Not a test: it asserts nothing.
# Usage: bash bench/crc32c.sh. The report is printed and saved under bench/reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib/deps.sh
ensure_packages make g++ libbenchmark-dev
make -s build/crc32c_benchmark
mkdir -p bench/reports
report=bench/reports/crc32c-$(date -u +%Y%m%d-%H%M%S).txt
{
  echo "idgen CRC-32C benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  build/crc32c_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>&1
} | tee "$report"
echo "report saved to $report"
