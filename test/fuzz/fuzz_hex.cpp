// libFuzzer target: the hexadecimal decoders accept exactly the fixed widths of 0-9A-Fa-f,
// never read past the input, and every accepted string re-encodes to itself up to letter case;
// the free-width decoder (group keys) accepts 1 or more digits for values up to its maximum and
// re-encodes to the input without its leading zeros.
#include <strings.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "core/hex.hpp"

using namespace idgen;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  char out[hex::kU128Chars];

  std::uint64_t v64 = 0;
  if (hex::decode_u64(text, size, &v64).status == DecodeStatus::ok) {
    hex::encode_u64(v64, out);
    if (size != hex::kU64Chars || strncasecmp(out, text, size) != 0) std::abort();
  }
  u128 v = 0;
  if (hex::decode_u128(text, size, &v).status == DecodeStatus::ok) {
    hex::encode_u128(v, out);
    if (size != hex::kU128Chars || strncasecmp(out, text, size) != 0) std::abort();
  }
  if (hex::decode_decimal28(text, size, &v).status == DecodeStatus::ok) {
    if (v > kDecimal28Max) std::abort();
    hex::encode_decimal28(v, out);
    if (size != hex::kDecimal28Chars || strncasecmp(out, text, size) != 0) std::abort();
  }
  std::uint64_t key = 0;
  const std::uint64_t max = (std::uint64_t{1} << 48) - 1;
  if (hex::decode_u64_any_width(text, size, max, &key).status == DecodeStatus::ok) {
    if (size == 0 || key > max) std::abort();
    std::size_t skip = 0;
    while (skip + 1 < size && text[skip] == '0') ++skip;
    const std::size_t n = hex::encode_u64_minimal(key, out);
    if (n != size - skip || strncasecmp(out, text + skip, n) != 0) std::abort();
  }
  return 0;
}
