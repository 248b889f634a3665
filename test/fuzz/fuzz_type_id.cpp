// libFuzzer target: the TypeID parser never reads past the input, reports a position inside it,
// and every accepted TypeID has a valid prefix and formats back to exactly the input (one
// spelling per prefix and UUID).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/type_id.hpp"

using namespace idgen;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  const type_id::Parsed parsed = type_id::parse(text, size);
  if (parsed.checked.problem != type_id::Problem::none) {
    if (parsed.checked.position > size) std::abort();  // size: the end (an empty suffix)
    return 0;
  }
  if (type_id::check_prefix(text, parsed.prefix_len).problem != type_id::Problem::none) {
    std::abort();
  }
  char out[type_id::kMaxText];
  const std::size_t n = type_id::format(text, parsed.prefix_len, parsed.id, out);
  if (n != size || std::memcmp(out, text, size) != 0) std::abort();
  return 0;
}
