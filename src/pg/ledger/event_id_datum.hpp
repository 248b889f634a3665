// The idgen.event_id SQL type as a Datum and its arguments: a pointer to its 16 bytes (fixed
// length, by reference, char alignment, the storage of uuid), so a cast to or from uuid needs no
// function.
#pragma once

#include <cstring>

#include "core/event_id.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

static_assert(sizeof(event_id::EventId) == 16, "event_id is stored as exactly 16 bytes");

inline const event_id::EventId* event_id_ptr(Datum d) {
  return reinterpret_cast<const event_id::EventId*>(DatumGetPointer(d));
}

inline event_id::EventId event_id_arg(FunctionCallInfo fcinfo, int n) {
  return *event_id_ptr(PG_GETARG_DATUM(n));
}

inline Datum event_id_datum(const event_id::EventId& id) {
  auto* out = static_cast<event_id::EventId*>(palloc(sizeof(event_id::EventId)));
  std::memcpy(out, &id, sizeof id);
  return PointerGetDatum(out);
}

// Argument readers for the parts: micros 0 .. 2^63 - 1 and a 32-bit ledger id, each non-NULL;
// out of range is 22003.
std::uint64_t event_micros_arg(FunctionCallInfo fcinfo, int n);
std::uint32_t event_ledger_arg(FunctionCallInfo fcinfo, int n);

// The 32 lower-case hex digits of an id, palloc'd and NUL-terminated (output and messages).
char* event_id_cstring(const event_id::EventId& id);

}  // namespace idgen::pg
