// idgen.generator_status(generator): what a time-ordered generator's state holds, for operators
// (docs/durability.md): whose state the session uses, the time of its last id and how far that
// runs ahead of the wall clock, how far the server clock runs ahead of the wall clock (after a
// clock step or a restart), the durable mark, this database's mark, and the session's pinned
// clock; the node number and whether the server is in recovery; and the server-wide state's
// counters since the server started (pg/generators/generator_events.hpp).
//
// The server-wide state is shared by every database of the server: its last id, the server
// clock's lead and the durable mark tell when ids were last made anywhere on the server (another
// database included), and so do its counters. Only superusers and members of pg_monitor see them;
// other roles see what concerns their own session and database, the node number and recovery.
#include <cstdint>
#include <cstring>

#include "core/clock.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/generators/database_mark.hpp"
#include "pg/generators/generator_events.hpp"
#include "pg/generators/generator_mark.hpp"
#include "pg/generators/node_id_guc.hpp"
#include "pg/generators/generator_state.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/server_clock.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/htup_details.h"
#include "access/xlog.h"
#include "catalog/pg_authid.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

struct Generator {
  const char* name;
  bool snowflake;                      // its scope is Snowflake's
  std::int64_t LastIdTimes::*last_us;  // its last id's time
  GeneratorKind kind;                  // its counters
};
IDGEN_STACK_SAFE(Generator);

constexpr Generator kGenerators[] = {
    {"snowflake", true, &LastIdTimes::snowflake_us, GeneratorKind::snowflake},
    {"uuidv7", false, &LastIdTimes::uuidv7_us, GeneratorKind::uuidv7},  // also TypeID's
    {"ulid", false, &LastIdTimes::ulid_us, GeneratorKind::ulid},
    {"distributed_id", false, &LastIdTimes::distributed_id_us, GeneratorKind::distributed_id},
    {"distributed_id128", false, &LastIdTimes::distributed_id128_us,
     GeneratorKind::distributed_id128},
};

const Generator& generator_arg(FunctionCallInfo fcinfo) {
  const char* name = text_to_cstring(PG_GETARG_TEXT_PP(0));
  for (const Generator& g : kGenerators) {
    if (std::strcmp(g.name, name) == 0) return g;
  }
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("\"%s\" is not a time-ordered generator of idgen", name),
                  errhint("Use snowflake, uuidv7 (which TypeIDs use), ulid, distributed_id or "
                          "distributed_id128.")));
  pg_unreachable();
}

const char* scope_name(GeneratorScope scope) {
  switch (scope) {
    case GeneratorScope::backend:
      return "backend";
    case GeneratorScope::server:
      return "server";
    case GeneratorScope::private_state:
      return "private";
  }
  elog(ERROR, "unknown generator scope");
  pg_unreachable();
}

Datum interval_datum(std::int64_t us) {
  auto* interval = static_cast<Interval*>(palloc0(sizeof(Interval)));
  interval->time = us;
  return IntervalPGetDatum(interval);
}

// Whether the calling role may see the server-wide state (see the file's comment).
bool sees_server_state() { return superuser() || has_privs_of_role(GetUserId(), ROLE_PG_MONITOR); }

}  // namespace

IDGEN_SQL_FUNCTION(idgen_generator_status) {
  const Generator& g = generator_arg(fcinfo);
  const GeneratorScope scope = g.snowflake ? current_snowflake_scope() : current_generator_scope();
  const bool server = scope == GeneratorScope::server;
  const bool sees_server = !server || sees_server_state();
  const std::int64_t last_us = last_id_times().*g.last_us;
  const std::int64_t wall_us = clock::now_unix_us();

  TupleDesc desc = nullptr;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE) {
    elog(ERROR, "idgen.generator_status must return a record");
  }
  enum Column {
    scope_col,
    last_id_at,
    last_id_ahead,
    clock_ahead,
    mark,
    database_mark,
    fixed_clock,
    node_id,
    in_recovery,
    ids_made,
    waits,
    clock_steps_back,
    mark_writes,
    columns
  };
  Datum values[columns] = {PointerGetDatum(cstring_to_text(scope_name(scope)))};
  bool nulls[columns];
  for (bool& null : nulls) null = true;
  nulls[scope_col] = false;
  if (last_us != 0 && sees_server) {
    values[last_id_at] = timestamptz_from_unix_us(last_us);
    values[last_id_ahead] = interval_datum(last_us - wall_us);
    nulls[last_id_at] = nulls[last_id_ahead] = false;
  }
  if (server && sees_server) {
    const ServerClockStatus status = server_clock_status();
    values[clock_ahead] = interval_datum(status.clock_us - status.wall_us);
    nulls[clock_ahead] = false;
    const std::int64_t mark_ms = durable_mark_ms();
    if (mark_ms > 0) {
      values[mark] = timestamptz_from_unix_us(mark_ms * 1000);
      nulls[mark] = false;
    }
  }
  const DatabaseMark db = read_database_mark();
  if (db.mark_ms > 0) {
    values[database_mark] = timestamptz_from_unix_ms(db.mark_ms);
    nulls[database_mark] = false;
  }
  if (clock::is_pinned()) {
    values[fixed_clock] = timestamptz_from_unix_us(wall_us);
    nulls[fixed_clock] = false;
  }
  if (configured_node_id() >= 0) {
    values[node_id] = Int32GetDatum(configured_node_id());
    nulls[node_id] = false;
  }
  values[in_recovery] = BoolGetDatum(RecoveryInProgress());
  nulls[in_recovery] = false;
  // The server's state's counters, whatever state this session uses: they exist only when idgen
  // is preloaded, and tell when other databases made ids.
  if (shared_generator_events != nullptr && sees_server_state()) {
    const GeneratorCounts counts = generator_counts(g.kind);
    values[ids_made] = Int64GetDatum(counts.ids);
    values[waits] = Int64GetDatum(counts.waits);
    values[clock_steps_back] = Int64GetDatum(counts.clock_steps_back);
    values[mark_writes] = Int64GetDatum(counts.mark_writes);
    nulls[ids_made] = nulls[waits] = nulls[clock_steps_back] = nulls[mark_writes] = false;
  }
  return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls));
}

}  // namespace idgen::pg
