// See uint128.hpp.
#include "core/uint128.hpp"

#include "core/byte_order.hpp"

namespace idgen {

u128 u128_from_uuid(const Uuid& id) noexcept {
  return u128_from_halves(load_be64(id.bytes.data()), load_be64(id.bytes.data() + 8));
}

Uuid uuid_from_u128(u128 v) noexcept {
  Uuid id;
  store_be64(id.bytes.data(), u128_hi(v));
  store_be64(id.bytes.data() + 8, u128_lo(v));
  return id;
}

std::size_t u128_to_decimal(u128 v, char* out) noexcept {
  char reversed[40];
  std::size_t n = 0;
  do {
    reversed[n++] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  for (std::size_t i = 0; i < n; ++i) out[i] = reversed[n - 1 - i];
  out[n] = '\0';
  return n;
}

bool u128_from_decimal(const char* text, std::size_t len, u128* out) noexcept {
  if (len == 0 || len > 39) return false;
  u128 v = 0;
  for (std::size_t i = 0; i < len; ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return false;
    const auto digit = static_cast<unsigned>(c - '0');
    if (v > (kU128Max - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *out = v;
  return true;
}

Base10000 to_base10000(u128 v) noexcept {
  // 128-bit division is a library call; split into 16-digit chunks first (at most two 128-bit
  // divisions) and take the base-10000 digits of each chunk with 64-bit arithmetic.
  constexpr std::uint64_t kChunk = 10000000000000000ULL;  // 10^16 = 10000^4
  std::uint64_t chunks[3];                                // least significant first
  int nchunks = 0;
  do {
    chunks[nchunks++] = static_cast<std::uint64_t>(v % kChunk);
    v /= kChunk;
  } while (v != 0);
  std::int16_t reversed[12] = {};  // least significant digit first
  int n = 0;
  for (int c = 0; c < nchunks; ++c) {
    std::uint64_t chunk = chunks[c];
    for (int i = 0; i < 4; ++i) {
      reversed[n++] = static_cast<std::int16_t>(chunk % 10000);
      chunk /= 10000;
    }
  }
  while (n > 0 && reversed[n - 1] == 0) --n;  // leading zero digits
  Base10000 r{};
  r.weight = n == 0 ? 0 : n - 1;
  int low = 0;  // trailing zero digits are implied by the weight
  while (low < n && reversed[low] == 0) ++low;
  r.ndigits = n - low;
  for (int i = 0; i < r.ndigits; ++i) r.digits[i] = reversed[n - 1 - i];
  return r;
}

Base10000Status from_base10000(const std::int16_t* digits, int ndigits, int weight, u128 max,
                               u128* out) noexcept {
  u128 v = 0;
  // Digit i stands for 10000^(weight - i); those with weight - i < 0 are the fraction.
  for (int i = 0; i < ndigits; ++i) {
    const int power = weight - i;
    if (power < 0) {
      if (digits[i] != 0) return Base10000Status::not_integer;
      continue;
    }
    if (v > (kU128Max - static_cast<u128>(digits[i])) / 10000) return Base10000Status::too_large;
    v = v * 10000 + static_cast<u128>(digits[i]);
  }
  // Implied trailing zero digits up to the units digit.
  for (int power = weight - ndigits; power >= 0; --power) {
    if (v > kU128Max / 10000) return Base10000Status::too_large;
    v *= 10000;
  }
  if (v > max) return Base10000Status::too_large;
  *out = v;
  return Base10000Status::ok;
}

bool split_u128(u128 v, std::int64_t* upper, std::int64_t* lower) noexcept {
  const std::uint64_t hi = u128_hi(v);
  const std::uint64_t lo = u128_lo(v);
  if ((hi >> 63) != 0 || (lo >> 63) != 0) return false;
  *upper = static_cast<std::int64_t>(hi);
  *lower = static_cast<std::int64_t>(lo);
  return true;
}

bool join_u128(std::int64_t upper, std::int64_t lower, u128* out) noexcept {
  if (upper < 0 || lower < 0) return false;
  *out = u128_from_halves(static_cast<std::uint64_t>(upper), static_cast<std::uint64_t>(lower));
  return true;
}

}  // namespace idgen
