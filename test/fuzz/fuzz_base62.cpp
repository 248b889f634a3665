// libFuzzer target: the alphanumeric (base62) decoders accept only canonical text, never read
// past the input, and every accepted string re-encodes to itself (the forms are case-sensitive,
// fixed-width and strict, so there is exactly one spelling per value).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/base62.hpp"

using namespace idgen;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  char out[base62::kU128Chars];

  std::uint64_t v64 = 0;
  if (base62::decode_u64(text, size, &v64).status == DecodeStatus::ok) {
    base62::encode_u64(v64, out);
    if (size != base62::kU64Chars || std::memcmp(out, text, size) != 0) std::abort();
  }
  u128 v = 0;
  if (base62::decode_u128(text, size, &v).status == DecodeStatus::ok) {
    base62::encode_u128(v, out);
    if (size != base62::kU128Chars || std::memcmp(out, text, size) != 0) std::abort();
  }
  if (base62::decode_decimal28(text, size, &v).status == DecodeStatus::ok) {
    if (v > kDecimal28Max) std::abort();
    base62::encode_decimal28(v, out);
    if (size != base62::kDecimal28Chars || std::memcmp(out, text, size) != 0) std::abort();
  }
  return 0;
}
