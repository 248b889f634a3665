#!/usr/bin/env bash
# Every benchmark, one after the other, each in its own throwaway cluster (docs/benchmarks.md):
# generation cost per row, inserts with the index far beyond shared_buffers (CSV and plots), the
# key size of the ULID and TypeID column types, ledger verification and CRC-32C throughput.
# Reports land in bench/reports/. About 20 minutes on the 2-core CI machine. Not a test: it
# asserts nothing. (bench/instructions.sh, instruction counts under Valgrind, runs on its own, as
# do bench/peers.sh and bench/sql_edition.sh, which build peers' sources into a copy of PostgreSQL:
# the latter times the SQL edition, idgen_sql, against the C edition and SQL-only peers.)
# Usage: bash bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash bench/generation.sh
bash bench/insert.sh
bash bench/column_types.sh
bash bench/ledger_verify.sh
bash bench/crc32c.sh
