// The whole-ledger verification aggregates (docs/event-id.md, "Verifying a ledger"):
//   idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)
//     -> (valid, events, first_invalid)
//   idgen.ledger_verify_report(... ORDER BY id)
//     -> the same plus the failing event's position, the reason and the id it should have had.
// Both share one transition function; its state is the core LedgerWalk, kept in the aggregate's
// memory context. The walk stops checking at the first failure but keeps counting rows, so
// `events` is the number of events the query fed.
#include "core/ledger_walk.hpp"
#include "pg/error_bridge.hpp"
#include "pg/ledger/event_hash.hpp"
#include "pg/ledger/event_id_datum.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

event_id::LedgerWalk* state_arg(FunctionCallInfo fcinfo) {
  return PG_ARGISNULL(0) ? nullptr : reinterpret_cast<event_id::LedgerWalk*>(PG_GETARG_POINTER(0));
}

// The composite result: valid, events, first_invalid [, position, reason, expected].
Datum result(FunctionCallInfo fcinfo, const event_id::LedgerWalk* walk, int columns) {
  TupleDesc desc = nullptr;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE ||
      desc->natts != columns) {
    elog(ERROR, "ledger verification must return a record of %d columns", columns);
  }
  Datum values[6] = {};
  bool nulls[6] = {false, false, true, true, true, true};
  const bool failed = walk != nullptr && walk->failed();
  // No rows: no genesis, so no valid ledger, and no event to name.
  values[0] = BoolGetDatum(walk != nullptr && !failed);
  values[1] = Int64GetDatum(walk == nullptr ? 0 : static_cast<std::int64_t>(walk->events()));
  if (failed) {
    values[2] = event_id_datum(walk->first_invalid());
    nulls[2] = false;
    if (columns == 6) {
      values[3] = Int64GetDatum(static_cast<std::int64_t>(walk->first_invalid_position()));
      values[4] = CStringGetTextDatum(event_id::fault_name(walk->fault()));
      nulls[3] = nulls[4] = false;
      event_id::EventId expected;
      if (walk->expected(&expected)) {
        values[5] = event_id_datum(expected);
        nulls[5] = false;
      }
    }
  }
  return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls));
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_ledger_verify_step) {
  MemoryContext aggregate_context = nullptr;
  if (AggCheckCallContext(fcinfo, &aggregate_context) == 0) {
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("idgen.ledger_verify_step may only be called by the ledger verification "
                           "aggregates")));
  }
  event_id::LedgerWalk* walk = state_arg(fcinfo);
  if (walk == nullptr) {
    walk = static_cast<event_id::LedgerWalk*>(MemoryContextAlloc(aggregate_context, sizeof *walk));
    *walk = event_id::LedgerWalk();
  }
  if (PG_ARGISNULL(1)) {
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("ledger event %llu has a NULL id",
                           static_cast<unsigned long long>(walk->events() + 1)),
                    errhint("Every event of a ledger has an id; verify with the id column of the "
                            "ledger table.")));
  }
  const event_id::EventId id = event_id_arg(fcinfo, 1);
  if (!walk->checking()) {
    walk->skip();
  } else if (PG_ARGISNULL(2) || PG_ARGISNULL(3) || PG_ARGISNULL(4) || PG_ARGISNULL(5)) {
    walk->missing_content(id);  // SQL NULL is never an empty piece
  } else {
    walk_event(*walk, id, PG_GETARG_TEXT_PP(2), PG_GETARG_JSONB_P(3), PG_GETARG_JSONB_P(4),
               PG_GETARG_JSONB_P(5));
  }
  PG_RETURN_POINTER(walk);
}

IDGEN_SQL_FUNCTION(idgen_ledger_verify_final) { return result(fcinfo, state_arg(fcinfo), 3); }

IDGEN_SQL_FUNCTION(idgen_ledger_verify_report_final) {
  return result(fcinfo, state_arg(fcinfo), 6);
}

}  // namespace idgen::pg
