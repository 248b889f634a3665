// SQL functions of Snowflake-style bigint ids (docs/snowflake.md): generation on this server's
// node number (idgen.node_id), extraction of timestamp, node and sequence, and the bound of a
// range scan.
//
// Generation needs one sequence per server: idgen in shared_preload_libraries. In backend scope
// each backend would count from the same values, so two sessions would make the same ids: it is
// refused (55000), in one message with an unset idgen.node_id, naming the statements to run. A
// clock pinned by a superuser's SET gives the session a private sequence, for tests; any other
// pinned clock is refused (42501), since that sequence would repeat the server's ids
// (idgen.test_random_seed does not matter: Snowflake ids have no random bits). During recovery (a
// hot standby) it is refused (25006): the standby would make its primary's ids. Errors: a negative
// id 22023 (bit 63 is always 0); an instant outside 2023 .. 2092 22008.
//
// idgen.snowflake_reserve_through(id) moves the server's generators past an id another generator
// made (pgEdge's snowflake extension, an earlier idgen), durably (pg/generators/steps.hpp), so
// that no later id of this server is at or below it: the step that lets a table keep its node
// number when it changes generators (docs/migrating.md).
#include <cstdint>
#include <optional>

#include "core/arith.hpp"
#include "core/clock.hpp"
#include "core/snowflake.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/generators/fixed_clock_guc.hpp"
#include "pg/generators/generator_state.hpp"
#include "pg/generators/steps.hpp"
#include "pg/generators/node_id_guc.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/wait.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "utils/builtins.h"
#include "utils/varlena.h"
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

[[noreturn]] void report_snowflake_out_of_range(const char* what) {
  ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                  errmsg("%s is outside the range of Snowflake timestamps", what),
                  errdetail("Snowflake ids cover 2023-01-01 UTC to 2092-09-06 (41 bits of ms).")));
  pg_unreachable();
}

// The value for ALTER SYSTEM SET shared_preload_libraries: the server's list with idgen added,
// one quoted literal per library (a single literal 'a, b' would be one library named "a, b").
const char* preload_list_with_idgen() {
  StringInfoData list;
  initStringInfo(&list);
  const char* current = GetConfigOption("shared_preload_libraries", false, false);
  List* libraries = NIL;
  if (current != nullptr && SplitGUCList(pstrdup(current), ',', &libraries)) {
    ListCell* cell;
    foreach (cell, libraries) {
      appendStringInfo(&list, "%s, ", quote_literal_cstr(static_cast<const char*>(lfirst(cell))));
    }
  }
  appendStringInfoString(&list, "'idgen'");
  return list.data;
}

// This server's node number, after checking both things Snowflake ids need: a node number
// (idgen.node_id) and one sequence for the whole server (idgen preloaded). A clock pinned by a
// superuser gives the session a private sequence, which needs no preload. Whatever is missing is
// named in one error with the statements that set it up (55000); they start with LOAD 'idgen',
// without which PostgreSQL 15 and 16 refuse ALTER SYSTEM SET idgen.node_id in a session that has
// not loaded idgen yet.
int snowflake_node_or_error() {
  const int node = configured_node_id();
  const bool node_missing = node < 0;
  const bool preload_missing = current_snowflake_scope() == GeneratorScope::backend;
  if (!node_missing && !preload_missing) return node;
  const char* preload = preload_list_with_idgen();
  if (node_missing && preload_missing) {
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("idgen.snowflake() needs idgen.node_id set and idgen in "
                    "shared_preload_libraries"),
             errdetail("A Snowflake id carries the number of the server that made it "
                       "(idgen.node_id, not set) and a sequence that the whole server shares "
                       "(idgen is not preloaded): without them two servers, or two sessions, "
                       "would make the same ids."),
             errhint("As a superuser: LOAD 'idgen'; ALTER SYSTEM SET shared_preload_libraries = "
                     "%s; ALTER SYSTEM SET idgen.node_id = 1; then restart the server. Give each "
                     "server its own number from 0 to 1023.",
                     preload)));
  }
  if (node_missing) {
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("idgen.snowflake() needs idgen.node_id set"),
             errdetail("A Snowflake id carries the number of the server that made it; two "
                       "servers with the same number would make the same ids."),
             errhint("As a superuser: LOAD 'idgen'; ALTER SYSTEM SET idgen.node_id = 1; SELECT "
                     "pg_reload_conf(); Give each server its own number from 0 to 1023.")));
  }
  ereport(ERROR,
          (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
           errmsg("idgen.snowflake() needs idgen in shared_preload_libraries"),
           errdetail("Snowflake ids of one server are told apart by a sequence that the whole "
                     "server shares; without it two sessions would make the same ids."),
           errhint("As a superuser: ALTER SYSTEM SET shared_preload_libraries = %s; then restart "
                   "the server.",
                   preload)));
  pg_unreachable();
}

std::uint64_t next_snowflake_value() {
  switch (current_snowflake_scope()) {
    case GeneratorScope::server:
      // A standby shares its primary's node number and clock instants: its ids would be ids the
      // primary makes too. nextval refuses there the same way.
      if (RecoveryInProgress()) {
        ereport(ERROR,
                (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                 errmsg("idgen.snowflake() cannot run during recovery"),
                 errdetail("A standby has its primary's node number: its Snowflake ids would be "
                           "ids the primary makes."),
                 errhint("Make Snowflake ids on the primary.")));
      }
      break;
    case GeneratorScope::private_state:
      // The session's own sequence restarts at 0 in every ms: with the server's node number its
      // ids are the ids the server makes, or made, at the pinned instant.
      if (!clock_pinned_by_superuser()) {
        ereport(ERROR,
                (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                 errmsg("idgen.snowflake() does not run on a clock that a superuser did not pin"),
                 errdetail("On a pinned clock (idgen.fixed_clock) this session counts Snowflake "
                           "ids on its own; they have no random bits, so they would be the ids "
                           "this server makes at that instant."),
                 errhint("RESET idgen.fixed_clock; to test Snowflake ids on a pinned clock, a "
                         "superuser pins it with SET in the session.")));
      }
      break;
    case GeneratorScope::backend:
      break;  // refused by snowflake_node_or_error before any id is made
  }
  for (;;) {
    const snowflake::Step step = step_snowflake();
    switch (step.kind) {
      case snowflake::StepKind::id:
        return step.value;
      case snowflake::StepKind::out_of_range:
        report_snowflake_out_of_range("the clock");
      case snowflake::StepKind::wait:
        wait_for_clock_past("Snowflake", step.wait_past_unix_ms, snowflake_clock_unix_ms);
        break;
    }
  }
}

// Bigint argument 0 as a Snowflake id: not negative.
std::int64_t snowflake_arg(FunctionCallInfo fcinfo) {
  const std::int64_t id = PG_GETARG_INT64(0);
  if (id < 0) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("%lld is not a Snowflake id", static_cast<long long>(id)),
                    errdetail("Snowflake ids are not negative: their top bit is 0.")));
  }
  return id;
}

// Refuses an id whose time leads the wall clock by more than max_lead_us (22003): every later
// Snowflake id would carry a time at least that far ahead, for good (the mark keeps it across
// restarts), so a mistaken value (the largest bigint, an id of another layout) must not get there.
void refuse_id_far_ahead(std::int64_t id, std::int64_t id_ms, std::int64_t max_lead_us) {
  const std::int64_t lead_ms = id_ms - floor_div(clock::real_now_unix_us(), 1000);
  if (lead_ms * 1000 <= max_lead_us) return;
  const std::int64_t allowed_ms = max_lead_us / 1000;
  ereport(ERROR,
          (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
           errmsg("id %lld is too far ahead of the clock", static_cast<long long>(id)),
           errdetail("Its time is %lld.%03lld s ahead of the clock; max_lead allows %lld.%03lld s. "
                     "Every Snowflake id made after it would carry a later time.",
                     static_cast<long long>(lead_ms / 1000), static_cast<long long>(lead_ms % 1000),
                     static_cast<long long>(allowed_ms / 1000),
                     static_cast<long long>(allowed_ms % 1000)),
           errhint("Pass the largest id the other generator made. If its ids really ran that far "
                   "ahead of the clock, pass a larger max_lead.")));
}

}  // namespace

// idgen.snowflake(): a new id of this node; increases per node.
IDGEN_SQL_FUNCTION(idgen_snowflake) {
  (void)fcinfo;
  const int node = snowflake_node_or_error();
  PG_RETURN_INT64(snowflake::compose(next_snowflake_value(), node));
}

IDGEN_SQL_FUNCTION(idgen_snowflake_timestamp) {
  return timestamptz_from_unix_ms(snowflake::parts(snowflake_arg(fcinfo)).unix_ms);
}

IDGEN_SQL_FUNCTION(idgen_snowflake_node) {
  PG_RETURN_INT32(snowflake::parts(snowflake_arg(fcinfo)).node);
}

IDGEN_SQL_FUNCTION(idgen_snowflake_sequence) {
  PG_RETURN_INT32(snowflake::parts(snowflake_arg(fcinfo)).sequence);
}

// idgen.snowflake_bound(timestamptz) STRICT: the smallest id of that ms (floor), any node.
IDGEN_SQL_FUNCTION(idgen_snowflake_bound) {
  const std::optional<std::int64_t> bound = snowflake::bound(unix_ms_arg(fcinfo, 0, "at"));
  if (!bound) report_snowflake_out_of_range("at");
  PG_RETURN_INT64(*bound);
}

// idgen.snowflake_reserve_through(id bigint, max_lead interval DEFAULT '1 minute'): every
// Snowflake id this server makes from now on is above id, whatever node made it, and at least the
// result (the first id of the next ms). Not STRICT: NULL is refused (22023).
IDGEN_SQL_FUNCTION(idgen_snowflake_reserve_through) {
  require_arg(fcinfo, 0, "id");
  const std::int64_t id = snowflake_arg(fcinfo);
  const std::int64_t max_lead_us = interval_us_arg(fcinfo, 1, "max_lead");
  if (max_lead_us < 0) {
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("max_lead must not be negative")));
  }
  const std::int64_t id_ms = snowflake::parts(id).unix_ms;
  refuse_id_far_ahead(id, id_ms, max_lead_us);
  const std::optional<std::int64_t> next = snowflake::bound(id_ms + 1);
  if (!next) {
    ereport(ERROR,
            (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
             errmsg("no Snowflake id follows id %lld", static_cast<long long>(id)),
             errdetail("Snowflake ids cover 2023-01-01 UTC to 2092-09-06 (41 bits of ms).")));
  }
  // The marks are sequences and WAL: a standby or a read-only transaction cannot write them.
  PreventCommandIfReadOnly("idgen.snowflake_reserve_through()");
  reserve_ids_through(id_ms);
  PG_RETURN_INT64(*next);
}

}  // namespace idgen::pg
