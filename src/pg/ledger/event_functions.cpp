// The computations of ledger event ids from SQL values (docs/event-id.md): canonical JSON,
// checksums and ids of regular events, the genesis of a ledger, and the check of one event
// against its predecessor. All IMMUTABLE, STRICT and PARALLEL SAFE.
#include "core/event_id.hpp"
#include "core/ledger_walk.hpp"
#include "pg/ledger/canonical_json.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/ledger/event_hash.hpp"
#include "pg/ledger/event_id_datum.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/htup_details.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

// (event, entities, meta, data, micros, ledger_id, previous) from argument 0 on.
std::uint32_t checksum_of_args(FunctionCallInfo fcinfo, std::uint64_t* micros,
                               std::uint32_t* ledger) {
  *micros = event_micros_arg(fcinfo, 4);
  *ledger = event_ledger_arg(fcinfo, 5);
  return regular_checksum(PG_GETARG_TEXT_PP(0), PG_GETARG_JSONB_P(1), PG_GETARG_JSONB_P(2),
                          PG_GETARG_JSONB_P(3), *micros, *ledger, event_id_arg(fcinfo, 6));
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_sorted_json) {
  StringInfoData utf8;
  initStringInfo(&utf8);
  canonical_json_text(&utf8, PG_GETARG_JSONB_P(0));
  // Back into the database encoding, which holds every character the jsonb held.
  const char* text = pg_any_to_server(utf8.data, utf8.len, PG_UTF8);
  PG_RETURN_TEXT_P(cstring_to_text(text));
}

IDGEN_SQL_FUNCTION(idgen_event_checksum) {
  std::uint64_t micros = 0;
  std::uint32_t ledger = 0;
  PG_RETURN_INT64(checksum_of_args(fcinfo, &micros, &ledger));
}

IDGEN_SQL_FUNCTION(idgen_event_id_of_event) {
  std::uint64_t micros = 0;
  std::uint32_t ledger = 0;
  const std::uint32_t checksum = checksum_of_args(fcinfo, &micros, &ledger);
  return event_id_datum(event_id::pack({micros, checksum, ledger}));
}

IDGEN_SQL_FUNCTION(idgen_ledger_genesis) {
  const Utf8Bytes name = utf8_bytes(PG_GETARG_TEXT_PP(0));
  const Utf8Bytes description = utf8_bytes(PG_GETARG_TEXT_PP(1));
  const std::uint64_t micros = event_micros_arg(fcinfo, 2);
  const event_id::Genesis g =
      event_id::genesis(reinterpret_cast<const char*>(name.data), name.len,
                        reinterpret_cast<const char*>(description.data), description.len, micros);
  TupleDesc desc = nullptr;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE) {
    elog(ERROR, "idgen.ledger_genesis must return a record");
  }
  Datum values[2] = {Int64GetDatum(g.ledger), event_id_datum(g.id)};
  bool nulls[2] = {false, false};
  return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls));
}

IDGEN_SQL_FUNCTION(idgen_event_id_check) {
  const event_id::EventId id = event_id_arg(fcinfo, 0);
  event_id::LedgerWalk walk;
  walk.start_after(event_id_arg(fcinfo, 5));
  if (!walk.structure(id)) PG_RETURN_BOOL(false);
  const event_id::Parts parts = event_id::unpack(id);
  walk.checksum(
      id, regular_checksum(PG_GETARG_TEXT_PP(1), PG_GETARG_JSONB_P(2), PG_GETARG_JSONB_P(3),
                           PG_GETARG_JSONB_P(4), parts.micros, parts.ledger, walk.previous()));
  PG_RETURN_BOOL(!walk.failed());
}

}  // namespace idgen::pg
