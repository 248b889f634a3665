#!/usr/bin/env bash
# The group registry cache across backends: a session that resolved a group name keeps resolving
# it through its cache, and another session's register_group, update or delete reaches it as
# soon as that transaction commits (never before), with idgen loaded per backend and preloaded.
# Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/sessions.sh

if [ "${1:-}" = "--inside" ]; then
  mode=$2
  check_prefix="$mode: "
  psql -XAtq -c 'CREATE EXTENSION idgen'
  # A session that stays open across the other sessions' changes.
  coproc OPEN { psql -XAtq -v VERBOSITY=terse 2>&1; }
  ask() { ask_open "${OPEN[1]}" "${OPEN[0]}" "$1"; }
  group_of="SELECT idgen.group_uuid_group(idgen.group_uuid('invoice', 1))"
  crc=$(psql -XAtq -c "SELECT idgen.crc12('invoice')")
  check "an unregistered name resolves to its CRC-12 (and is cached)" "$(ask "$group_of")" "$crc"

  # Registered in another session, inside a transaction that is still open: not visible yet.
  coproc WRITER { psql -XAtq -v VERBOSITY=terse 2>&1; }
  write() { ask_open "${WRITER[1]}" "${WRITER[0]}" "$1"; }
  write "BEGIN; SELECT 1" >/dev/null
  write "SELECT idgen.register_group('invoice', 77)" >/dev/null
  check "an uncommitted registration is not seen by another session" "$(ask "$group_of")" "$crc"
  write "COMMIT; SELECT 1" >/dev/null
  check "a committed registration reaches the open session's next call" "$(ask "$group_of")" 77
  psql -XAtq -c "UPDATE idgen.groups SET group_id = 78 WHERE name = 'invoice'"
  check "an update of the registry reaches it" "$(ask "$group_of")" 78
  psql -XAtq -c "DELETE FROM idgen.groups WHERE name = 'invoice'"
  check "a delete brings back the CRC-12" "$(ask "$group_of")" "$crc"
  psql -XAtq -c "SELECT idgen.register_group('invoice', 79)" >/dev/null
  psql -XAtq -c "TRUNCATE idgen_internal.groups"
  check "a truncate brings back the CRC-12" "$(ask "$group_of")" "$crc"
  # Many names: more than the cache holds, all resolved right, twice over.
  psql -XAtq -c "SELECT idgen.register_group('name' || g, 100 + g) FROM generate_series(1, 40) g" >/dev/null
  check "40 registered names resolve right through a 16-slot cache" \
    "$(ask "SELECT count(*) FROM generate_series(1, 40) g, generate_series(1, 2) r WHERE idgen.group_uuid_group(idgen.group_uuid('name' || g, 1)) = 100 + g")" 80
  exit 0
fi

echo "usage: bash $0 --inside [MODE]   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
