// idgen.generator_status(generator): what a time-ordered generator's state holds, for operators
// (docs/durability.md): whose state the session uses, the time of its last id and how far that
// runs ahead of the wall clock, how far the server clock runs ahead of the wall clock (after a
// clock step or a restart), and the durable mark.
#include <cstdint>
#include <cstring>

#include "core/clock.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/generator_state.hpp"
#include "pg/postgres.hpp"
#include "pg/server_clock.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

struct Generator {
  const char* name;
  bool snowflake;                      // its scope is Snowflake's
  std::int64_t LastIdTimes::*last_us;  // its last id's time
};
IDGEN_STACK_SAFE(Generator);

constexpr Generator kGenerators[] = {
    {"snowflake", true, &LastIdTimes::snowflake_us},
    {"uuidv7", false, &LastIdTimes::uuidv7_us},  // also TypeID's
    {"ulid", false, &LastIdTimes::ulid_us},
    {"distributed_id", false, &LastIdTimes::distributed_id_us},
    {"distributed_id128", false, &LastIdTimes::distributed_id128_us},
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

}  // namespace

IDGEN_SQL_FUNCTION(idgen_generator_status) {
  const Generator& g = generator_arg(fcinfo);
  const GeneratorScope scope = g.snowflake ? current_snowflake_scope() : current_generator_scope();
  const std::int64_t last_us = last_id_times().*g.last_us;
  const std::int64_t wall_us = clock::now_unix_us();

  TupleDesc desc = nullptr;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE) {
    elog(ERROR, "idgen.generator_status must return a record");
  }
  Datum values[5] = {PointerGetDatum(cstring_to_text(scope_name(scope))), 0, 0, 0, 0};
  bool nulls[5] = {false, true, true, true, true};
  if (last_us != 0) {
    values[1] = timestamptz_from_unix_us(last_us);
    values[2] = interval_datum(last_us - wall_us);
    nulls[1] = nulls[2] = false;
  }
  if (scope == GeneratorScope::server) {
    const ServerClockStatus status = server_clock_status();
    values[3] = interval_datum(status.clock_us - status.wall_us);
    nulls[3] = false;
    if (status.mark_ms > 0) {
      values[4] = timestamptz_from_unix_us(status.mark_ms * 1000);
      nulls[4] = false;
    }
  }
  return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls));
}

}  // namespace idgen::pg
