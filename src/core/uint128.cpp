// See uint128.hpp.
#include "core/uint128.hpp"

#include <cstring>

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
  // 128-bit division is a library call. Only a value above 2^64 - 1 needs one per 16-digit chunk
  // (a DistributedId one, a 39-digit value two), the remainder taken by a multiplication rather
  // than a second call; below 2^64 the chunks, and every chunk's base-10000 digits, come from
  // 64-bit divisions by constants, which compile to multiplications.
  constexpr std::uint64_t kChunk = 10000000000000000ULL;  // 10^16 = 10000^4
  std::uint64_t chunks[3];                                // least significant first
  int nchunks = 0;
  while (u128_hi(v) != 0) {
    const u128 q = v / kChunk;
    chunks[nchunks++] = static_cast<std::uint64_t>(v - q * kChunk);
    v = q;
  }
  std::uint64_t rest = u128_lo(v);
  do {
    chunks[nchunks++] = rest % kChunk;
    rest /= kChunk;
  } while (rest != 0);
  // Base-10000 digits, most significant first: chunk c's four are at (nchunks - 1 - c) * 4. A
  // chunk is split into two 8-digit halves, each two digits: two short chains, not one of four.
  // 12 digits at most, and room to copy a whole Base10000::digits from any of them.
  std::int16_t all[12 + 10] = {};
  for (int c = 0; c < nchunks; ++c) {
    std::int16_t* at = all + (nchunks - 1 - c) * 4;
    const auto lower = static_cast<std::uint32_t>(chunks[c] % 100000000);
    const auto upper = static_cast<std::uint32_t>(chunks[c] / 100000000);
    at[0] = static_cast<std::int16_t>(upper / 10000);
    at[1] = static_cast<std::int16_t>(upper % 10000);
    at[2] = static_cast<std::int16_t>(lower / 10000);
    at[3] = static_cast<std::int16_t>(lower % 10000);
  }
  const int n = nchunks * 4;
  int first = 0;  // leading zero digits
  while (first < n && all[first] == 0) ++first;
  int end = n;  // trailing zero digits are implied by the weight
  while (end > first && all[end - 1] == 0) --end;
  Base10000 r{};
  r.weight = first == n ? 0 : n - 1 - first;
  r.ndigits = end - first;
  // A fixed-size copy (no call): the digits past ndigits are zeros, as Base10000{} has them.
  static_assert(sizeof all >= 12 * sizeof(std::int16_t) + sizeof r.digits);
  std::memcpy(r.digits, all + first, sizeof r.digits);
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
