// libFuzzer target: the check of the idgen.typeid type's stored form (its binary input) never reads
// past the input, reports a position inside the prefix, and every accepted form's text parses back
// to the same prefix and UUID, which compare equal to the form itself and order consistently.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/type_id.hpp"

using namespace idgen;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const type_id::Checked checked = type_id::check_stored(data, size);
  if (checked.problem != type_id::Problem::none) {
    if (size >= type_id::kStoredMin && checked.position > size - type_id::kStoredMin) std::abort();
    return 0;
  }
  if (size < type_id::kStoredMin || size > type_id::kStoredMax) std::abort();
  const char* prefix = reinterpret_cast<const char*>(data + type_id::kStoredMin);
  const std::size_t prefix_len = size - type_id::kStoredMin;
  Uuid id;
  std::memcpy(id.bytes.data(), data, type_id::kStoredMin);
  char text[type_id::kMaxText];
  const std::size_t n = type_id::format(prefix, prefix_len, id, text);
  const type_id::Parsed parsed = type_id::parse(text, n);
  if (parsed.checked.problem != type_id::Problem::none || parsed.prefix_len != prefix_len ||
      std::memcmp(text, prefix, prefix_len) != 0 || parsed.id.bytes != id.bytes) {
    std::abort();
  }
  if (type_id::compare_stored(data, size, data, size) != 0) std::abort();
  // The form with its last prefix character dropped (a prefix of this one) sorts first.
  if (prefix_len > 0 && type_id::compare_stored(data, size - 1, data, size) != -1) {
    std::abort();
  }
  return 0;
}
