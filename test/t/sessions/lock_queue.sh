#!/usr/bin/env bash
# No role below the owner of idgen's objects makes another role's id generation or DDL wait by
# queueing a lock on them. PostgreSQL queues the lock that CREATE RULE, CREATE TRIGGER or COMMENT
# asks for before it checks that the role owns the relation, and every later lock request on the
# relation waits behind the queued one for as long as any earlier holder keeps its lock. So two
# sessions of any login role sufficed in idgen 0.3.0: one holds a lock on the database's generator
# mark (any transaction that made a server-wide id keeps one) or on the group registry (any reader),
# the other queues CREATE RULE on it, and every server-wide id of the database (each backend reads
# the mark at its first id), every group lookup and every DROP of a table (the event trigger reads
# the registry) waits. Now idgen keeps both in schema idgen_internal, which no such role may name,
# and reads and writes them as their owner: the queued requests fail at once, and those on the
# registry's view idgen.groups hold back only readers of the view.
#
# How long idgen may wait: its reads and raises of its own objects wait only for another session's
# raise of the same mark (one setval) or for their owner (a superuser, the database's owner). Every
# statement of the victim here runs with statement_timeout = 2s, so a wait behind the queue fails
# it with 57014. The same attack on a plain sequence makes nextval wait: PostgreSQL's own, shown
# as a note. Mode: "server" (idgen preloaded: the server-wide generators and the mark) or
# "backend". Prints TAP lines.
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source test/lib/sessions.sh

if [ "${1:-}" = "--inside" ]; then
  mode=${2:?mode}
  check_prefix="$mode: "
  q "CREATE EXTENSION idgen;
     CREATE ROLE holder LOGIN; CREATE ROLE queuer LOGIN; CREATE ROLE app LOGIN;
     GRANT CREATE ON SCHEMA public TO app, queuer;
     CREATE SEQUENCE plain_sequence; GRANT USAGE ON plain_sequence TO PUBLIC;
     SELECT idgen.register_group('person', 7)" >/dev/null
  if [ "$mode" = server ]; then
    q "ALTER SYSTEM SET idgen.node_id = 3"
    q "SELECT pg_reload_conf()" >/dev/null
  fi
  as_role app "CREATE TABLE app_table (id uuid DEFAULT idgen.uuidv7(), n int);
               CREATE TABLE doomed_one (id int); CREATE TABLE doomed_two (id int)"

  # The holder: an open transaction that made server-wide ids, looked a group up, read the
  # registry's view and took a plain sequence's next value. Each keeps its locks until it ends.
  coproc HOLDER { psql -XAtq -U holder -v VERBOSITY=terse 2>&1; }
  holder() { ask_open "${HOLDER[1]}" "${HOLDER[0]}" "$1"; }
  holder "BEGIN; SELECT 1" >/dev/null
  check "the holder's open transaction makes ids, looks a group up and reads the registry" \
    "$(holder "SELECT idgen.uuidv7() IS NOT NULL, idgen.group_uuid('person', 1) IS NOT NULL,
                      (SELECT count(*) FROM idgen.groups), nextval('plain_sequence') > 0")" "t|t|1|t"

  # The queuer: lock requests that PostgreSQL queues before it checks ownership, on every idgen
  # relation that 0.3.0 or this version has. Each runs in the background until it fails.
  queue_dir=$(mktemp -d)
  queued=()
  queue() {  # queue NAME SQL
    psql -XAtq -U queuer -v VERBOSITY=sqlstate -c "SET statement_timeout = '60s'" -c "$2" 2>&1 |
      sed -E 's/^ERROR:  ([0-9A-Z]{5})$/\1/' >"$queue_dir/$1" &
    queued+=($!)
  }
  # "done" once every request still running waits for a lock (those refused at once have ended).
  # shellcheck disable=SC2317  # run by until_prints
  queue_state() {
    local waiting alive=0 pid
    waiting=$(q "SELECT count(*) FROM pg_stat_activity WHERE usename = 'queuer'
                 AND wait_event_type = 'Lock'")
    for pid in "${queued[@]}"; do kill -0 "$pid" 2>/dev/null && alive=$((alive + 1)); done
    if [ "$waiting" -gt 0 ] && [ "$waiting" = "$alive" ]; then echo "done"; else echo "$waiting of $alive waiting"; fi
  }
  queue rule_mark "CREATE RULE q AS ON INSERT TO idgen.generator_mark DO INSTEAD NOTHING"
  queue rule_groups "CREATE RULE q AS ON INSERT TO idgen.groups DO INSTEAD NOTHING"
  queue rule_internal_mark "CREATE RULE q AS ON INSERT TO idgen_internal.generator_mark DO INSTEAD NOTHING"
  queue rule_internal_groups "CREATE RULE q AS ON INSERT TO idgen_internal.groups DO INSTEAD NOTHING"
  queue trigger_internal_groups "CREATE TRIGGER q BEFORE INSERT ON idgen_internal.groups FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger()"
  queue comment_internal_origin "COMMENT ON SEQUENCE idgen_internal.generator_mark_origin IS 'q'"
  queue rule_plain_sequence "CREATE RULE q AS ON INSERT TO plain_sequence DO INSTEAD NOTHING"
  check "the queuer's requests that PostgreSQL queues are waiting" "$(until_prints "done" queue_state)" "done"

  # The victim: another role, new sessions, every statement limited to 2 s.
  victim() { PGOPTIONS='-c statement_timeout=2s' as_role app "$@"; }
  if [ "$mode" = server ]; then
    check "another role's server-wide ids are made without waiting" \
      "$(victim "SELECT idgen.uuidv7() IS NOT NULL, idgen.snowflake() > 0, idgen.ulid() IS NOT NULL,
                        idgen.distributed_id() IS NOT NULL, idgen.distributed_id128() IS NOT NULL")" "t|t|t|t|t"
  fi
  check "... an INSERT with DEFAULT idgen.uuidv7() too" \
    "$(victim "INSERT INTO app_table (n) SELECT g FROM generate_series(1, 1000) g")" ""
  check "a group is looked up by name without waiting" \
    "$(victim "SELECT idgen.group_uuid_group(idgen.group_uuid('person', 2)),
                      idgen.group_name(idgen.group_uuid(7, 3))")" "7|person"
  check "another role's DROP of a table is not held back" \
    "$(victim "DROP TABLE doomed_one")" ""
  note=$(victim "SELECT nextval('plain_sequence') > 0")
  echo "# the same attack on a plain sequence: nextval in another session gives '$note'" \
    "(57014: it waited for the queue)"

  holder "COMMIT; SELECT 1" >/dev/null
  end_open "${HOLDER[1]}" "$HOLDER_PID"
  for pid in "${queued[@]}"; do wait "$pid"; done
  outcomes=$(for f in rule_mark rule_groups rule_internal_mark rule_internal_groups \
                      trigger_internal_groups comment_internal_origin; do
               printf '%s:%s ' "$f" "$(tr '\n' ' ' <"$queue_dir/$f" | sed 's/ *$//')"; done)
  rm -rf "$queue_dir"
  check "every queued request on idgen's objects failed: refused names, or not the owner" \
    "$outcomes" "rule_mark:42P01 rule_groups:42501 rule_internal_mark:42501 rule_internal_groups:42501 trigger_internal_groups:42501 comment_internal_origin:42501 "
  check "... and changed nothing" \
    "$(q "SELECT count(*) FROM pg_rewrite WHERE rulename = 'q'") $(q "SELECT count(*) FROM pg_trigger WHERE tgname = 'q'")" "0 0"
  check "a table dropped after the holder ended is forgotten by the registry too" \
    "$(victim "DROP TABLE doomed_two")" ""
  exit 0
fi

echo "usage: bash $0 --inside server|backend   (test/t/040_session_scripts.pl runs it against a node)" >&2
exit 2
