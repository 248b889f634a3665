// libFuzzer target: decimal text and base-10000 digits (PostgreSQL numeric's digits) of unsigned
// 128-bit values. Accepted decimals round-trip through both forms; arbitrary digit arrays, as a
// numeric datum could hold them, are read without overflow or out-of-bounds access.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/uint128.hpp"

using namespace idgen;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  u128 v = 0;
  if (u128_from_decimal(text, size, &v)) {
    char back[40];
    const std::size_t n = u128_to_decimal(v, back);
    // Accepted input is plain digits; leading zeros are the only other spelling.
    std::size_t skip = 0;
    while (skip + 1 < size && text[skip] == '0') ++skip;
    if (n != size - skip || std::memcmp(back, text + skip, n) != 0) std::abort();
    std::int16_t digits[kMaxBase10000Digits];
    int weight = 0;
    const int ndigits = to_base10000(v, digits, &weight);
    u128 again = 0;
    if ((ndigits > 0 && (digits[0] == 0 || digits[ndigits - 1] == 0)) ||
        from_base10000(digits, ndigits, weight, kU128Max, &again) != Base10000Status::ok ||
        again != v) {
      std::abort();
    }
  }
  // Any digit array with any weight: as numeric's digits are 0..9999, clamp them there.
  if (size >= 2) {
    const int weight = static_cast<std::int8_t>(data[0]) * 4;
    const int ndigits = static_cast<int>((size - 1) / 2);
    std::int16_t digits[64];
    const int n = ndigits < 64 ? ndigits : 64;
    for (int i = 0; i < n; ++i) {
      digits[i] = static_cast<std::int16_t>(((data[1 + 2 * i] << 8) | data[2 + 2 * i]) % 10000);
    }
    u128 out = 0;
    if (from_base10000(digits, n, weight, kDecimal28Max, &out) == Base10000Status::ok &&
        out > kDecimal28Max) {
      std::abort();
    }
  }
  return 0;
}
