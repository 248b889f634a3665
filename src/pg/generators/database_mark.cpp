// See database_mark.hpp.
#include "pg/generators/database_mark.hpp"

#include <cstdint>

#include "core/arith.hpp"
#include "pg/generators/generator_events.hpp"
#include "pg/generators/generator_mark.hpp"
#include "pg/generators/mark_max_lead_guc.hpp"
#include "pg/owner_rights.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/server_clock.hpp"
#include "pg/generators/standby_gate.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/parallel.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

// Whether the database's mark was last written by this server (its origin is ours).
bool origin_is_ours = false;

// The two sequences: the mark, and the system identifier of the server that wrote it (a server,
// its standbys and its base backups share it; a restore or pg_upgrade target has its own).
struct MarkSequences {
  Oid mark;
  Oid origin;
};
IDGEN_STACK_SAFE(MarkSequences);

// A sequence of that name in that schema that belongs to the extension idgen, else InvalidOid: a
// schema idgen_internal that another role made in a database whose idgen predates it holds
// nothing idgen reads or writes.
Oid sequence_named(Oid schema, const char* name, Oid extension) {
  const Oid relid = get_relname_relid(name, schema);
  if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_SEQUENCE) return InvalidOid;
  if (getExtensionOfObject(RelationRelationId, relid) != extension) return InvalidOid;
  return relid;
}

// Both, or InvalidOid marks in a database whose extension predates them. In schema idgen_internal
// from 0.4.0 on; in schema idgen where the database's extension is still 0.3.0 (between installing
// 0.4.0 and running ALTER EXTENSION idgen UPDATE there).
MarkSequences mark_sequences() {
  static const char* const kSchemas[] = {"idgen_internal", "idgen"};
  const Oid extension = get_extension_oid("idgen", true);
  if (!OidIsValid(extension)) return {InvalidOid, InvalidOid};
  for (const char* schema_name : kSchemas) {
    const Oid schema = get_namespace_oid(schema_name, true);
    if (!OidIsValid(schema)) continue;
    const MarkSequences found{sequence_named(schema, "generator_mark", extension),
                              sequence_named(schema, "generator_mark_origin", extension)};
    if (OidIsValid(found.mark) && OidIsValid(found.origin)) return found;
  }
  return {InvalidOid, InvalidOid};
}

std::int64_t this_server() { return static_cast<std::int64_t>(GetSystemIdentifier()); }

// A sequence's last value; 0 when it was never set.
std::int64_t read_sequence(Oid relid) {
  LOCAL_FCINFO(fcinfo, 1);
  InitFunctionCallInfoData(*fcinfo, nullptr, 1, InvalidOid, nullptr, nullptr);
  fcinfo->args[0].value = ObjectIdGetDatum(relid);
  fcinfo->args[0].isnull = false;
  const Datum value = pg_sequence_last_value(fcinfo);
  return fcinfo->isnull ? 0 : DatumGetInt64(value);
}

void set_sequence(Oid relid, std::int64_t value) {
  (void)DirectFunctionCall2(setval_oid, ObjectIdGetDatum(relid), Int64GetDatum(value));
}

// Runs f() as the sequences' owner, as PostgreSQL's RI triggers run their queries: the caller
// needs no privilege on them (nobody but the database's owner may even name them), and no user
// code runs in between.
template <typename F>
void as_owner(const MarkSequences& seqs, F f) {
  with_rights_of(relation_owner(seqs.mark), SECURITY_RESTRICTED_OPERATION, f);
}

DatabaseMark read_marks(const MarkSequences& seqs) {
  DatabaseMark found{0, 0};
  as_owner(seqs, [&] {
    found.mark_ms = read_sequence(seqs.mark);
    found.origin = read_sequence(seqs.origin);
  });
  return found;
}

// Adopting another server's mark moves the generators of every database of this server past it.
// One far ahead of this server's clock means that one of the two clocks is (or was) wrong, and
// adopting it would stamp every later id of the server that far ahead, so it takes a superuser's
// decision (idgen.mark_max_lead) instead.
void refuse_far_ahead(const DatabaseMark& db) {
  const std::int64_t limit = mark_max_lead_ms();
  if (limit < 0) return;
  const std::int64_t lead = db.mark_ms - floor_div(server_clock_now_us(), 1000);
  if (lead <= limit) return;
  const char* name = get_database_name(MyDatabaseId);
  ereport(ERROR,
          (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
           errmsg("database \"%s\" holds a generator mark %lld.%03lld s ahead of this server's "
                  "clock",
                  name != nullptr ? name : "?", static_cast<long long>(lead / 1000),
                  static_cast<long long>(lead % 1000)),
           errdetail("Another server (system identifier %llu) wrote the mark: the ids copied into "
                     "this database with it may be that far ahead. Before the first id here, idgen "
                     "would move the generators of every database of this server past it; "
                     "idgen.mark_max_lead (%lld ms) allows no more.",
                     static_cast<unsigned long long>(db.origin), static_cast<long long>(limit)),
           errhint("Check both servers' clocks. To adopt the mark anyway, a superuser raises "
                   "idgen.mark_max_lead. To make ids from this server's clock instead (they may "
                   "then sort below the copied ids and repeat their Snowflake ids), a superuser "
                   "sets the mark back: SELECT setval('idgen_internal.generator_mark', 1, "
                   "false).")));
}

}  // namespace

DatabaseMarkSeen database_mark_seen = {false, 0};

void adopt_database_mark_now() {
  const MarkSequences seqs = mark_sequences();
  if (!OidIsValid(seqs.mark)) check_standbys_before_first_mark(true);
  if (OidIsValid(seqs.mark)) {
    const DatabaseMark db = read_marks(seqs);
    const bool ours = db.origin == this_server();
    // A mark this server set (the update from a release that logged none sets one) or that its
    // start took from the databases has not been logged yet: the gate looks at the standbys.
    check_standbys_before_first_mark((ours && db.mark_ms > 0) || start_took_database_marks());
    if (ours) {
      // This server's own marks are covered by its durable mark, unless its file was lost or
      // replaced by an older copy and the start did not move the clock past it already (it reads
      // every database's mark when the file is missing); adopting a mark below the durable one,
      // or below the clock, would only move the clock on by the mark's window at every session.
      const ServerClockStatus server = server_clock_status();
      if (db.mark_ms > durable_mark_ms() && db.mark_ms >= floor_div(server.clock_us, 1000)) {
        adopt_mark(db.mark_ms);
        log_adopted_mark(db.mark_ms, 0);
      }
    } else if (db.mark_ms > 0) {
      refuse_far_ahead(db);
      adopt_mark(db.mark_ms);
      log_adopted_mark(db.mark_ms, static_cast<std::uint64_t>(db.origin));
    }
    origin_is_ours = ours;
    database_mark_seen.recorded = db.mark_ms;
  }
  database_mark_seen.adopted = true;
}

std::int64_t own_database_mark() {
  const DatabaseMark db = read_database_mark();
  return db.origin == this_server() ? db.mark_ms : 0;
}

namespace {

// Raises the database's mark to `mark` (never lowers it) and, unless it is ours already, makes
// this server its origin; records what the mark is then. Sessions raise it one at a time (a lock
// that conflicts with itself, not with nextval or pg_dump), so a slower session never sets it back
// below a faster one's mark. Only idgen's own raises take it, each for one setval: no role but the
// database's owner can name the sequence, so none can hold or queue a lock that this one waits
// behind.
void raise_database_mark(const MarkSequences& seqs, std::int64_t mark) {
  std::int64_t now_known = mark;
  as_owner(seqs, [&] {
    LockRelationOid(seqs.mark, ShareUpdateExclusiveLock);
    const std::int64_t current = read_sequence(seqs.mark);
    if (current < mark) {
      set_sequence(seqs.mark, mark);
    } else {
      now_known = current;
    }
    if (!origin_is_ours) set_sequence(seqs.origin, this_server());
    UnlockRelationOid(seqs.mark, ShareUpdateExclusiveLock);
  });
  database_mark_seen.recorded = now_known;
  origin_is_ours = true;
}

}  // namespace

void record_in_database_mark_now(std::int64_t id_ms) {
  if (XactReadOnly || IsInParallelMode() || RecoveryInProgress()) return;
  const MarkSequences seqs = mark_sequences();
  if (!OidIsValid(seqs.mark)) return;
  const std::int64_t mark = durable_mark_ms();
  if (mark < id_ms) return;  // not covered yet: cover_id_time comes first
  raise_database_mark(seqs, mark);
}

void reserve_in_database_mark(std::int64_t mark_ms) {
  const MarkSequences seqs = mark_sequences();
  if (!OidIsValid(seqs.mark)) {
    elog(ERROR, "idgen's generator mark sequences are missing in this database");
  }
  raise_database_mark(seqs, mark_ms);
}

DatabaseMark read_database_mark() {
  const MarkSequences seqs = mark_sequences();
  return OidIsValid(seqs.mark) ? read_marks(seqs) : DatabaseMark{0, 0};
}

}  // namespace idgen::pg
