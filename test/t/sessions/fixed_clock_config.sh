#!/usr/bin/env bash
# idgen.fixed_clock set outside a session: postgresql.conf (with idgen preloaded, so the postmaster
# itself checks the value on reload) and ALTER DATABASE (value stored before the library is
# loaded). A bad value must be refused with a message, never take the server or a session down.
# Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1

if [ "${1:-}" = "--inside" ]; then
  mode=$2
  psql -XAtq -c 'CREATE EXTENSION idgen'
  conf=$(psql -XAtq -c 'SHOW config_file')
  if [ "$mode" = preloaded ]; then
    echo "idgen.fixed_clock = '2026-01-01 00:00:00 Mars/Olympus'" >>"$conf"
    psql -XAtq -c 'SELECT pg_reload_conf()' >/dev/null
    sleep 1
    if [ "$(psql -XAtq -c 'SELECT left(idgen.comb()::text, 4) <> $$6dc0$$' 2>&1)" = t ]; then
      echo "ok - $mode: a bad value in postgresql.conf is refused on reload and the server stays up"
    else
      echo "not ok - $mode: server after reloading a bad idgen.fixed_clock"
    fi
    sed -i '$d' "$conf"
    echo "idgen.fixed_clock = '2026-01-01 00:00:00+00'" >>"$conf"
    psql -XAtq -c 'SELECT pg_reload_conf()' >/dev/null
    sleep 1
    if [ "$(psql -XAtq -c 'SELECT left(idgen.comb()::text, 4)')" = 6dc0 ]; then
      echo "ok - $mode: a good value in postgresql.conf pins the clock of new sessions"
    else
      echo "not ok - $mode: postgresql.conf value not applied"
    fi
  else
    psql -XAtq -c "ALTER DATABASE $PGDATABASE SET idgen.fixed_clock = '2026-01-01 Mars/Olympus'" 2>&1
    out=$(psql -XAtq -c 'SELECT count(idgen.comb()) FROM generate_series(1, 3)' \
               -c 'SELECT count(idgen.comb())' 2>&1)
    if grep -q '^3$' <<<"$out" && grep -q '^1$' <<<"$out" && ! grep -q ERROR <<<"$out"; then
      echo "ok - $mode: a bad per-database value warns on load and the session keeps working"
    else
      echo "not ok - $mode: per-database bad value: $out"
    fi
  fi
  exit 0
fi

echo "usage: bash $0 --inside [MODE]   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
