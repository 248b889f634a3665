#!/usr/bin/env bash
# Hostile input leaves no crash behind: runs the regression suite's hostile-input script
# (sql/hostile_input.sql: every idgen function with malformed, empty, huge, negative, boundary,
# non-ASCII and NULL arguments, about 900 calls) against a throwaway cluster, then checks the
# server log of that run: no backend terminated by a signal, no PANIC, no "internal error" report,
# and the server still answers. (Which SQLSTATE each call raises is the regression suite's check;
# an internal error XX000 among them fails it there.) Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

if [ "${1:-}" = "--inside" ]; then
  check() {
    if [ "$2" = "$3" ]; then echo "ok - $1"; else echo "not ok - $1 (expected '$3', got '$2')"; fi
  }
  log=$(pg_lsclusters -h | awk -v port="$PGPORT" '$3 == port {print $7}')
  [ -r "$log" ] || { echo "not ok - the server log of port $PGPORT is readable ($log)"; exit 0; }
  # Every log line carries its SQLSTATE (%e), so an internal error (XX000) can be found.
  psql -XAtq -c "ALTER SYSTEM SET log_line_prefix = '%m [%p] %e '" -c 'SELECT pg_reload_conf()' >/dev/null
  sleep 0.5
  start=$(wc -l <"$log")
  psql -XAtq -c 'CREATE EXTENSION idgen'
  # sqlstate_of() is made by the regression suite's setup script; define it the same way.
  psql -XAtq -c "CREATE FUNCTION sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS \$\$
                 BEGIN EXECUTE query; RETURN 'no error';
                 EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ': ' || SQLERRM; END \$\$"
  psql -X -q -v ON_ERROR_STOP=1 -f sql/hostile_input.sql >/tmp/hostile_input.$$ 2>&1
  status=$?
  calls=$(grep -A2 ' calls | functions' /tmp/hostile_input.$$ | tail -1 | tr -s ' ' | cut -d'|' -f1 | tr -d ' ')
  rm -f /tmp/hostile_input.$$
  # The script catches its errors (each call is a subtransaction), so they are not logged; one
  # uncaught error shows that the log would show an internal error's SQLSTATE.
  psql -XAtq -c "SELECT 'not an id'::idgen.event_id" >/dev/null 2>&1
  check "the hostile-input script ran to its end ($calls calls)" "$status" 0
  run_log=$(tail -n +"$((start + 1))" "$log")
  check "no backend was terminated by a signal" \
    "$(grep -c 'terminated by signal\|was terminated' <<<"$run_log")" 0
  check "no PANIC, no server restart" "$(grep -c 'PANIC\|all server processes terminated' <<<"$run_log")" 0
  check "an uncaught error is logged with its SQLSTATE (22P02)" \
    "$(grep -c ' 22P02 ERROR' <<<"$run_log" | awk '{print ($1 > 0)}')" 1
  check "no internal error (XX000) was reported" "$(grep -c ' XX000 ' <<<"$run_log")" 0
  check "the server still answers" "$(psql -XAtq -c 'SELECT idgen.crc32c(text '\''123456789'\'')')" 3808858755
  exit 0
fi

pg_virtualenv bash "$0" --inside
