// See uuid_like_type.hpp.
#include "pg/uuid_like_type.hpp"

#include <cstring>

#include "core/byte_order.hpp"
#include "pg/callback.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "common/hashfn.h"
#include "libpq/pqformat.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

constexpr int kBytes = 16;

int compare_datums(Datum a, Datum b, SortSupport) noexcept { return compare_uuid_like(a, b); }

Datum abbreviate(Datum original, SortSupport) noexcept {
  return static_cast<Datum>(load_be64(uuid_like_bytes(original)));
}

int compare_abbreviated(Datum a, Datum b, SortSupport) noexcept {
  const auto x = static_cast<std::uint64_t>(a);
  const auto y = static_cast<std::uint64_t>(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

bool never_abort(int, SortSupport) noexcept { return false; }

}  // namespace

void set_uuid_like_sort_support(SortSupport ssup) {
  ssup->comparator = noexcept_callback(compare_datums);
  if (ssup->abbreviate && SIZEOF_DATUM >= 8) {
    ssup->abbrev_converter = noexcept_callback(abbreviate);
    ssup->abbrev_abort = noexcept_callback(never_abort);
    ssup->abbrev_full_comparator = noexcept_callback(compare_datums);
    ssup->comparator = noexcept_callback(compare_abbreviated);
  }
}

Datum hash_uuid_like(Datum d) { return hash_any(uuid_like_bytes(d), kBytes); }

Datum hash_uuid_like_extended(Datum d, std::uint64_t seed) {
  return hash_any_extended(uuid_like_bytes(d), kBytes, seed);
}

Datum receive_uuid_like(StringInfo buf) {
  void* out = palloc(kBytes);
  std::memcpy(out, pq_getmsgbytes(buf, kBytes), kBytes);
  return PointerGetDatum(out);
}

bytea* send_uuid_like(Datum d) {
  StringInfoData buf;
  pq_begintypsend(&buf);
  pq_sendbytes(&buf, reinterpret_cast<const char*>(uuid_like_bytes(d)), kBytes);
  return pq_endtypsend(&buf);
}

Datum uuid_like_datum(const Uuid& value) {
  void* out = palloc(kBytes);
  std::memcpy(out, value.bytes.data(), kBytes);
  return PointerGetDatum(out);
}

}  // namespace idgen::pg
