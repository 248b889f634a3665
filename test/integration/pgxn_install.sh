#!/usr/bin/env bash
# Packaging as a user installs from it: `make dist` builds the PGXN release archive of the
# committed tree, Debian's pgxnclient builds and installs idgen from that archive (`pgxn install
# ./idgen-<version>.zip`) into the PostgreSQL that PG_CONFIG names (default: pg_config on PATH),
# and a throwaway server of that installation creates the extension at the archive's version.
# Needs root (the installation's directories), as `make install` does. Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source test/lib/clusters.sh
pg_config=${PG_CONFIG:-pg_config}
bin=$("$pg_config" --bindir)
check() { if [ "$2" = "$3" ]; then echo "ok - $1"; else echo "not ok - $1 (expected '$3', got '$2')"; fi; }

version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" idgen.control)
work=$(mktemp -d /tmp/idgen-pgxn.XXXXXX)
chmod 755 "$work"
port=""
cleanup() {
  [ -n "$port" ] && as_server "$bin/pg_ctl" -D "$work/data" -m immediate -w stop >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

archive=$(make -s dist 2>"$work/dist.err" | tail -n 1)
check "make dist builds build/idgen-$version.zip" "$archive" "build/idgen-$version.zip"
cp "$archive" "$work/" || exit 0

# pgxn builds in a directory of its own from the archive alone (no checkout, no build output),
# then installs; the module file it installs is newer than this test's start.
library=$("$pg_config" --pkglibdir)/idgen.so
touch "$work/started"
sleep 1
(cd "$work" && pgxn install --make make --pg_config "$pg_config" --nosudo --unstable "./idgen-$version.zip") \
  >"$work/pgxn.log" 2>&1
status=$?
check "pgxn install ./idgen-$version.zip builds and installs" "$status" 0
((status == 0)) || tail -n 30 "$work/pgxn.log"
check "the installed module is the one pgxn just built" \
  "$([ "$library" -nt "$work/started" ] && echo newer || echo older)" newer

[ "$(id -u)" = 0 ] && chown postgres: "$work"
as_server "$bin/initdb" -D "$work/data" -A trust -U postgres >"$work/initdb.log" 2>&1 ||
  { echo "not ok - initdb"; cat "$work/initdb.log"; exit 0; }
for p in $(free_ports_in 56100 56149); do
  if as_server "$bin/pg_ctl" -D "$work/data" -l "$work/log" -w -t 60 \
    -o "-p $p -k $work -c listen_addresses=''" start >/dev/null 2>&1; then
    port=$p
    break
  fi
done
[ -n "$port" ] || { echo "not ok - a free port in 56100-56149"; exit 0; }
check "CREATE EXTENSION idgen creates the archive's version" \
  "$("$bin/psql" -XAtq -h "$work" -p "$port" -U postgres -d postgres -c 'CREATE EXTENSION idgen' \
      -c "SELECT extversion FROM pg_extension WHERE extname = 'idgen'")" "$version"
check "the installed idgen makes ids" \
  "$("$bin/psql" -XAtq -h "$work" -p "$port" -U postgres -d postgres \
      -c "SELECT idgen.comb_prefix(idgen.comb_at('2026-01-01 00:00:00+00'))")" 28096
# The archive installs the SQL edition too: in a database of its own (one edition per database).
check "CREATE EXTENSION idgen_sql creates the archive's version, with the same ids" \
  "$("$bin/psql" -XAtq -h "$work" -p "$port" -U postgres -d postgres -c 'CREATE DATABASE sql_edition' &&
     "$bin/psql" -XAtq -h "$work" -p "$port" -U postgres -d sql_edition \
      -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION idgen_sql CASCADE' \
      -c "SELECT extversion || ' ' || idgen.comb_prefix(idgen.comb_at('2026-01-01 00:00:00+00'))
          FROM pg_extension WHERE extname = 'idgen_sql'")" "$version 28096"
