// The SQL types stored as uuid is (16 bytes, by reference, char alignment) and ordered bytewise
// as uuid is: idgen.event_id and idgen.ulid. Their casts to and from uuid therefore need no
// function; their comparison, sort support, hashes (the same as uuid's, so a value hashes as its
// uuid does) and binary I/O (the 16 bytes) are these, shared by both types.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/uuid.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "lib/stringinfo.h"
#include "utils/sortsupport.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

inline const std::uint8_t* uuid_like_bytes(Datum d) {
  return reinterpret_cast<const std::uint8_t*>(DatumGetPointer(d));
}

// -1, 0 or 1: the bytewise order of two values. Inline: a btree calls it for every comparison.
inline int compare_uuid_like(Datum a, Datum b) {
  const int c = std::memcmp(uuid_like_bytes(a), uuid_like_bytes(b), 16);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

// A comparator and, where a Datum holds 8 bytes, abbreviated keys on the first 8 bytes (the time
// of every time-ordered id idgen makes, so the abbreviation alone orders almost every pair; it is
// never aborted).
void set_uuid_like_sort_support(SortSupport ssup);

Datum hash_uuid_like(Datum d);
Datum hash_uuid_like_extended(Datum d, std::uint64_t seed);

// The 16 bytes of a binary message (fewer left is 08P01, as for uuid), palloc'd as a Datum.
Datum receive_uuid_like(StringInfo buf);
// A value's 16 bytes as a binary message.
bytea* send_uuid_like(Datum d);

// A palloc'd copy of a value as a Datum.
Datum uuid_like_datum(const Uuid& value);

}  // namespace idgen::pg
