// See database_mark.hpp.
#include "pg/database_mark.hpp"

#include "pg/node_id_guc.hpp"
#include "pg/postgres.hpp"
#include "pg/server_clock.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/htup_details.h"
#include "access/parallel.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
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

Oid sequence_named(Oid schema, const char* name) {
  const Oid relid = get_relname_relid(name, schema);
  if (!OidIsValid(relid) || get_rel_relkind(relid) != RELKIND_SEQUENCE) return InvalidOid;
  return relid;
}

// Both, or InvalidOid marks in a database whose extension predates them.
MarkSequences mark_sequences() {
  const Oid schema = get_namespace_oid("idgen", true);
  if (!OidIsValid(schema)) return {InvalidOid, InvalidOid};
  const MarkSequences found{sequence_named(schema, "generator_mark"),
                            sequence_named(schema, "generator_mark_origin")};
  if (!OidIsValid(found.mark) || !OidIsValid(found.origin)) return {InvalidOid, InvalidOid};
  return found;
}

std::int64_t this_server() { return static_cast<std::int64_t>(GetSystemIdentifier()); }

Oid owner_of(Oid relid) {
  HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
  if (!HeapTupleIsValid(tuple)) elog(ERROR, "cache lookup failed for relation %u", relid);
  const Oid owner = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->relowner;
  ReleaseSysCache(tuple);
  return owner;
}

// Runs f() as the sequences' owner, as PostgreSQL's RI triggers run their queries: the caller
// needs no privilege on them, and no user code runs in between. An error restores the caller's
// identity with the transaction's abort.
template <typename F>
void as_owner(Oid relid, F f) {
  Oid user = InvalidOid;
  int context = 0;
  GetUserIdAndSecContext(&user, &context);
  SetUserIdAndSecContext(owner_of(relid),
                         context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
  f();
  SetUserIdAndSecContext(user, context);
}

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

// A database restored or upgraded from another server: if that server still runs with this
// server's node number, both make the same Snowflake ids. idgen cannot see the other server, so it
// says so once, when it adopts the mark (a server makes no Snowflake ids without a node number).
void warn_about_node_number(std::int64_t origin) {
  const int node = configured_node_id();
  if (node < 0) return;
  ereport(WARNING,
          (errmsg("this database's ids were made by another server (system identifier %llu)",
                  static_cast<unsigned long long>(origin)),
           errdetail("idgen moved its generators past that server's generator mark: new ids sort "
                     "after its ids. Snowflake ids stay unique only while no two running servers "
                     "have the same node number; this server's is %d.",
                     node),
           errhint("If that server still makes Snowflake ids with idgen.node_id = %d, give one of "
                   "the two another node number.",
                   node)));
}

}  // namespace

DatabaseMarkSeen database_mark_seen = {false, 0};

void adopt_database_mark_now() {
  const MarkSequences seqs = mark_sequences();
  if (OidIsValid(seqs.mark)) {
    std::int64_t mark = 0;
    std::int64_t origin = 0;
    as_owner(seqs.mark, [&] {
      mark = read_sequence(seqs.mark);
      origin = read_sequence(seqs.origin);
    });
    database_mark_seen.recorded = mark;
    origin_is_ours = origin == this_server();
    // This server's own marks are covered by its durable mark already; adopting them would only
    // move the clock on by the mark's window at every new session.
    if (mark > 0 && !origin_is_ours) {
      adopt_mark(mark);
      warn_about_node_number(origin);
    }
  }
  database_mark_seen.adopted = true;
}

std::int64_t database_mark_of_this_database() {
  const MarkSequences seqs = mark_sequences();
  if (!OidIsValid(seqs.mark)) return 0;
  std::int64_t mark = 0;
  as_owner(seqs.mark, [&] { mark = read_sequence(seqs.mark); });
  return mark;
}

void record_in_database_mark_now(std::int64_t id_ms) {
  if (XactReadOnly || IsInParallelMode() || RecoveryInProgress()) return;
  const MarkSequences seqs = mark_sequences();
  if (!OidIsValid(seqs.mark)) return;
  const std::int64_t mark = server_clock_status().mark_ms;
  if (mark < id_ms) return;  // not covered yet: cover_id_time comes first
  // Sessions raise it one at a time (a lock that conflicts with itself, not with nextval or
  // pg_dump), so a slower session never sets it back below a faster one's mark.
  std::int64_t now_known = mark;
  as_owner(seqs.mark, [&] {
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

}  // namespace idgen::pg
