// libFuzzer target: the Crockford base32 decoder (ULID text, TypeID suffixes) accepts only 26
// characters of the alphabet, never reads past the input, and every accepted text re-encodes to
// itself: exactly in the lower-case reading, up to letter case in the any-case reading (so one
// value has one spelling per case, with no I/L/O/U aliases).
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/crockford32.hpp"

using namespace idgen;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  char out[crockford32::kChars];

  Uuid value{};
  if (crockford32::decode(text, size, crockford32::Reading::any_case, &value).status ==
      DecodeStatus::ok) {
    if (size != crockford32::kChars) std::abort();
    crockford32::encode(value, crockford32::Case::upper, out);
    for (std::size_t i = 0; i < size; ++i) {
      if (out[i] != std::toupper(static_cast<unsigned char>(text[i]))) std::abort();
    }
  }
  if (crockford32::decode(text, size, crockford32::Reading::lower_only, &value).status ==
      DecodeStatus::ok) {
    if (size != crockford32::kChars) std::abort();
    crockford32::encode(value, crockford32::Case::lower, out);
    if (std::memcmp(out, text, size) != 0) std::abort();
  }
  return 0;
}
