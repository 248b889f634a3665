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

namespace {

constexpr std::uint64_t kChunk = 10000000000000000ULL;  // 10^16 = 10000^4

// The four base-10000 digits of a chunk below 10^16, most significant first: two 8-digit halves,
// each split in two, so the chain is two divisions by constants (multiplications) long, not four.
struct ChunkDigits {
  std::int16_t d[4];
};
ChunkDigits chunk_digits(std::uint64_t chunk) noexcept {
  const auto lower = static_cast<std::uint32_t>(chunk % 100000000);
  const auto upper = static_cast<std::uint32_t>(chunk / 100000000);
  return {{static_cast<std::int16_t>(upper / 10000), static_cast<std::int16_t>(upper % 10000),
           static_cast<std::int16_t>(lower / 10000), static_cast<std::int16_t>(lower % 10000)}};
}

// How many base-10000 digits a chunk below 10^16 has without its leading zeros (0 for 0).
int chunk_length(std::uint64_t chunk) noexcept {
  if (chunk >= 1000000000000ULL) return 4;
  if (chunk >= 100000000) return 3;
  if (chunk >= 10000) return 2;
  return chunk != 0 ? 1 : 0;
}

// Stores a chunk's last `length` digits (1 to 4) at `at`; returns the position after them.
[[gnu::always_inline]] inline std::int16_t* store_digits(std::uint64_t chunk, int length,
                                                         std::int16_t* at) noexcept {
  const ChunkDigits c = chunk_digits(chunk);
  switch (length) {
    case 4:
      *at++ = c.d[0];
      [[fallthrough]];
    case 3:
      *at++ = c.d[1];
      [[fallthrough]];
    case 2:
      *at++ = c.d[2];
      [[fallthrough]];
    default:
      *at++ = c.d[3];
  }
  return at;
}

}  // namespace

int to_base10000(u128 v, std::int16_t* digits, int* weight) noexcept {
  // Three chunks of 16 decimal digits, least significant first. 128-bit division is a library
  // call: only a value above 2^64 - 1 needs one (two above 10^16 * 2^64, about 1.8 * 10^35), the
  // remainder taken by a multiplication; the rest are 64-bit divisions by constants, which compile
  // to multiplications.
  std::uint64_t chunk[3];
  if (u128_hi(v) == 0) {
    chunk[0] = u128_lo(v) % kChunk;
    chunk[1] = u128_lo(v) / kChunk;
    chunk[2] = 0;
  } else {
    const u128 q = v / kChunk;
    chunk[0] = u128_lo(v) - u128_lo(q) * kChunk;
    const u128 q2 = u128_hi(q) == 0 ? u128{u128_lo(q) / kChunk} : q / kChunk;
    chunk[1] = u128_lo(q) - u128_lo(q2) * kChunk;
    chunk[2] = u128_lo(q2);
  }
  // The leading chunk's digits without its leading zeros, then every chunk after it whole: the
  // digits go straight to the caller's memory, their count known from the chunks' values before
  // any is stored (no stack array, no scan for the first non-zero digit).
  const int top = chunk[2] != 0 ? 2 : chunk[1] != 0 ? 1 : 0;
  const int top_length = chunk_length(chunk[top]);
  if (top_length == 0) {
    *weight = 0;
    return 0;
  }
  std::int16_t* at = store_digits(chunk[top], top_length, digits);
  if (top == 2) at = store_digits(chunk[1], 4, at);
  if (top >= 1) at = store_digits(chunk[0], 4, at);
  const int length = static_cast<int>(at - digits);
  *weight = length - 1;
  // Trailing zero digits are implied by the weight.
  int n = length;
  while (digits[n - 1] == 0) --n;  // the leading digit is not zero
  return n;
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
