#!/usr/bin/env bash
# No role below the group registry's owner holds back another role's DROP through idgen's event
# trigger (which clears the registry's target of a dropped table). Roles register through
# idgen.register_group (EXECUTE granted, as docs/group-uuid.md says), only their own tables, and
# have no privilege on the registry's table (idgen_internal.groups, in a schema they may not use);
# an open registration, even of the very group whose table is dropped, does not make a DROP wait;
# dropping a temporary table never reads the registry, even while its owner holds it locked. In
# idgen 0.2.0 the documented grant (INSERT, UPDATE) let a writer lock the registry, and every DROP
# in the database, even of a temporary table, waited for it. Each DROP here runs with
# statement_timeout = 5s: a wait fails it with 57014. (Locks queued on the registry by any role:
# lock_queue.sh.) Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/sessions.sh

if [ "${1:-}" = "--inside" ]; then
  # No statement runs longer than this: a DROP that waited fails with 57014.
  export PGOPTIONS='-c statement_timeout=5s'
  q "CREATE EXTENSION idgen;
     CREATE ROLE migrator LOGIN; CREATE ROLE app LOGIN;
     GRANT CREATE ON SCHEMA public TO app;
     GRANT EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) TO migrator, app"
  as_role app "CREATE TABLE app_one (id int); CREATE TABLE app_two (id int); CREATE TABLE app_three (id int)"
  check "the application registers its tables' groups through idgen.register_group" \
    "$(as_role app "SELECT idgen.register_group('one', 11, 'app_one'), idgen.register_group('two', 12, 'app_two'),
                           idgen.register_group('three', 13, 'app_three')")" "11|12|13"
  check "... and may not even use the schema of the registry's table" \
    "$(as_role migrator "SELECT has_schema_privilege('idgen_internal', 'USAGE')")" f
  check "the migrator cannot lock the registry (42501)" \
    "$(as_role migrator "BEGIN; LOCK TABLE idgen_internal.groups IN ACCESS EXCLUSIVE MODE")" 42501
  check "... nor write it directly (42501)" \
    "$(as_role migrator "UPDATE idgen.groups SET target = NULL")" 42501
  check "... nor point a group at a table it does not own (42501)" \
    "$(as_role migrator "SELECT idgen.register_group('four', 14, 'app_three')")" 42501
  q "REVOKE EXECUTE ON FUNCTION idgen.register_group(text, integer, regclass) FROM app"
  check "a role without the grant cannot register (42501)" \
    "$(as_role app "SELECT idgen.register_group('five', 15)")" 42501

  # An open registration: the migrator re-registers group one (its row is locked) and registers
  # a new group (the registry's registration lock is held) without committing.
  coproc WRITER { psql -XAtq -U migrator -v VERBOSITY=terse 2>&1; }
  writer() { ask_open "${WRITER[1]}" "${WRITER[0]}" "$1"; }
  writer "BEGIN; SELECT 1" >/dev/null
  check "an open transaction of the migrator holds a registration of group one" \
    "$(writer "SELECT idgen.register_group('one', 11), idgen.register_group('four', 14)")" "11|14"
  check "another role drops a registered table meanwhile, without waiting" \
    "$(as_role app "DROP TABLE app_two")" ""
  check "... and its target is cleared" \
    "$(q "SELECT coalesce(target::text, 'none') FROM idgen.groups WHERE name = 'two'")" none
  check "it drops the table of the very group being registered, without waiting" \
    "$(as_role app "DROP TABLE app_one")" ""
  writer "COMMIT; SELECT 1" >/dev/null
  end_open "${WRITER[1]}" "$WRITER_PID"
  check "the registration commits as made; no group routes to a dropped table" \
    "$(q "SELECT string_agg(name || ':' || coalesce(idgen.group_target(idgen.group_uuid(group_id, 1))::text, 'none'),
                            ' ' ORDER BY group_id) FROM idgen.groups")" \
    "one:none two:none three:app_three four:none"

  # Dropping a temporary table reads nothing of the registry: not even its owner's lock holds it.
  coproc OWNER { psql -XAtq -v VERBOSITY=terse 2>&1; }
  owner() { ask_open "${OWNER[1]}" "${OWNER[0]}" "$1"; }
  owner "BEGIN; LOCK TABLE idgen_internal.groups IN ACCESS EXCLUSIVE MODE; SELECT 1" >/dev/null
  check "with the registry locked by its owner, a role drops its temporary table without waiting" \
    "$(as_role app "CREATE TEMP TABLE scratch (id int); DROP TABLE scratch")" ""
  owner "ROLLBACK; SELECT 1" >/dev/null
  end_open "${OWNER[1]}" "$OWNER_PID"

  # A role that may read the registry's view may lock it only as a reader, which holds back no
  # DROP.
  coproc READER { psql -XAtq -U app -v VERBOSITY=terse 2>&1; }
  reader() { ask_open "${READER[1]}" "${READER[0]}" "$1"; }
  reader "BEGIN; LOCK TABLE idgen.groups IN ACCESS SHARE MODE; SELECT 1" >/dev/null
  check "with a reader's lock on the registry, a registered table is dropped without waiting" \
    "$(as_role app "DROP TABLE app_three")" ""
  reader "ROLLBACK; SELECT 1" >/dev/null
  end_open "${READER[1]}" "$READER_PID"
  check "... and its target is cleared" \
    "$(q "SELECT coalesce(target::text, 'none') FROM idgen.groups WHERE name = 'three'")" none
  exit 0
fi

echo "usage: bash $0 --inside   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
