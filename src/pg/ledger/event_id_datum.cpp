// See ledger/event_id_datum.hpp.
#include "pg/ledger/event_id_datum.hpp"

#include "pg/convert.hpp"

namespace idgen::pg {

char* event_id_cstring(const event_id::EventId& id) {
  char* out = static_cast<char*>(palloc(event_id::kTextChars + 1));
  event_id::encode_text(id, out);
  out[event_id::kTextChars] = '\0';
  return out;
}

std::uint64_t event_micros_arg(FunctionCallInfo fcinfo, int n) {
  const std::int64_t v = int64_arg(fcinfo, n, "micros");
  if (v < 0) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("micros %lld is out of range", static_cast<long long>(v)),
                    errdetail("Event timestamps are microseconds since 1970, 0 or more.")));
  }
  return static_cast<std::uint64_t>(v);
}

std::uint32_t event_ledger_arg(FunctionCallInfo fcinfo, int n) {
  return uint32_arg(fcinfo, n, "ledger_id");
}

}  // namespace idgen::pg
