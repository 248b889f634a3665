#!/usr/bin/env bash
# idgen.fixed_clock set outside a session's own SET. A session's startup options (PGOPTIONS) are
# its own and pin its clock; settings that reach other sessions pin nothing: postgresql.conf (with
# idgen preloaded, so the postmaster itself checks the value on reload), ALTER SYSTEM, and a
# database or role setting that exists although ALTER DATABASE/ROLE ... SET refuses it now (0.3.0
# took them and stamped every id made in those sessions with the pinned time; a superuser may still
# store one where idgen is not loaded, and the catalog stands in for it where idgen is preloaded).
# Such a value is refused with a message, never takes the server or a session down. MODE: plain
# (idgen loaded per backend) or preloaded. Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/sessions.sh

# real_clock: "t" when this session's idgen makes UUIDv7 and COMB ids of the real time (the COMB
# prefix of the hour around the call), with any warning of the session's start left out.
real_clock_sql="SELECT idgen.uuid_timestamp(idgen.uuidv7()) > now() - interval '1 minute'
                   AND idgen.comb_prefix(idgen.comb('1 hour', 4), 4) IN (
                     idgen.comb_prefix_at(clock_timestamp() - interval '1 second', '1 hour', 4),
                     idgen.comb_prefix_at(clock_timestamp() + interval '1 second', '1 hour', 4))"

if [ "${1:-}" = "--inside" ]; then
  mode=$2
  check_prefix="$mode: "
  psql -XAtq -c 'CREATE EXTENSION idgen'
  q "CREATE ROLE tester LOGIN"

  check "a session's own startup options (PGOPTIONS) pin its clock" \
    "$(PGOPTIONS="-c idgen.fixed_clock=2026-01-01T00:00:00+00" q "SELECT left(idgen.comb()::text, 4)")" 6dc0
  check "... for a role that is not a superuser too" \
    "$(PGOPTIONS="-c idgen.fixed_clock=2026-01-01T00:00:00+00" as_role tester "SELECT left(idgen.comb()::text, 4)")" 6dc0
  check "ALTER SYSTEM SET is refused (22023)" \
    "$(as_role "$(q 'SELECT current_user')" "LOAD 'idgen'" \
      "ALTER SYSTEM SET idgen.fixed_clock = '2026-01-01 00:00:00+00'")" 22023

  conf=$(q 'SHOW config_file')
  if [ "$mode" = preloaded ]; then
    # Each reload also changes idgen.ledger_max_lead, which shows when new sessions have it.
    for value in "'2026-01-01 00:00:00 Mars/Olympus'|2min" "'2026-01-01 00:00:00+00'|3min"; do
      echo "idgen.fixed_clock = ${value%|*}" >>"$conf"
      echo "idgen.ledger_max_lead = '${value#*|}'" >>"$conf"
      q 'SELECT pg_reload_conf()' >/dev/null
      until_prints "${value#*|}" q 'SHOW idgen.ledger_max_lead' >/dev/null
      check "postgresql.conf with idgen.fixed_clock = ${value%|*}: refused on reload, new sessions run on the real clock" \
        "$(q "$real_clock_sql")" t
      sed -i '$d' "$conf"
      sed -i '$d' "$conf"
    done
    check "... and the postmaster logs both refusals" \
      "$(grep -c 'LOG:  invalid value for parameter "idgen.fixed_clock"' "$IDGEN_SERVER_LOG")" 2
    q "INSERT INTO pg_db_role_setting
       VALUES ((SELECT oid FROM pg_database WHERE datname = current_database()), 0,
               '{\"idgen.fixed_clock=2020-01-01 00:00:00+00\"}')"
  else
    # A backend that has not loaded idgen takes a superuser's setting unchecked.
    q "ALTER DATABASE $PGDATABASE SET idgen.fixed_clock = '2020-01-01 00:00:00+00'"
  fi
  check "a database setting stored anyway: sessions warn when they apply it" \
    "$(psql -XAtq -c "$real_clock_sql" 2>&1 | grep -c '^WARNING:  invalid value for parameter "idgen.fixed_clock"')" 1
  check "... and their UUIDv7 and COMB ids carry the real time, not 2020" \
    "$(q "$real_clock_sql" 2>/dev/null)" t
  check "... for a role that is not a superuser too" \
    "$(as_role tester "$real_clock_sql" | grep -v -e '^WARNING:' -e '^DETAIL:' -e '^HINT:')" t
  check "... and the setting can be removed" \
    "$(q "ALTER DATABASE $PGDATABASE RESET idgen.fixed_clock" 2>/dev/null; q 'SELECT count(*) FROM pg_db_role_setting')" 0

  if [ "$mode" = plain ]; then
    q "ALTER DATABASE $PGDATABASE SET idgen.fixed_clock = '2026-01-01 Mars/Olympus'"
    out=$(psql -XAtq -c 'SELECT count(idgen.comb()) FROM generate_series(1, 3)' \
      -c 'SELECT count(idgen.comb())' 2>&1)
    check "a bad per-database value warns on load and the session keeps working" \
      "$(grep -c '^WARNING' <<<"$out") $(grep -cx '3' <<<"$out") $(grep -cx '1' <<<"$out") $(grep -c ERROR <<<"$out")" \
      "1 1 1 0"
    q "ALTER DATABASE $PGDATABASE RESET idgen.fixed_clock"
  fi
  exit 0
fi

echo "usage: bash $0 --inside MODE   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
