// Unsigned 128-bit values: the numeric form of 128-bit ids, DistributedId values (below 10^28),
// their decimal text, base-10000 digits (the digit base of PostgreSQL's numeric) and the .NET
// library's two-bigint form.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/uuid.hpp"

namespace idgen {

using u128 = unsigned __int128;

constexpr u128 kU128Max = ~u128{0};

// 10^28 - 1, the largest DistributedId value (28 decimal digits).
constexpr u128 kDecimal28Max = u128{999999999999999999ULL} * 10000000000ULL + 9999999999ULL;

constexpr u128 u128_from_halves(std::uint64_t hi, std::uint64_t lo) noexcept {
  return (u128{hi} << 64) | lo;
}
constexpr std::uint64_t u128_hi(u128 v) noexcept { return static_cast<std::uint64_t>(v >> 64); }
constexpr std::uint64_t u128_lo(u128 v) noexcept { return static_cast<std::uint64_t>(v); }

// The 16 bytes of a uuid read big-endian, and back.
u128 u128_from_uuid(const Uuid& id) noexcept;
Uuid uuid_from_u128(u128 v) noexcept;

// Decimal text without sign or leading zeros ("0" for zero). out needs 40 bytes; returns length.
std::size_t u128_to_decimal(u128 v, char* out) noexcept;
// Parses 1..39 ASCII digits; false for anything else or a value above 2^128 - 1.
bool u128_from_decimal(const char* text, std::size_t len, u128* out) noexcept;

// A non-negative integer as base-10000 digits, most significant first, the way PostgreSQL's
// numeric stores it: value = sum digits[i] * 10000^(weight - i). Zero has no digits. Trailing
// zero digits are dropped (they are implied by weight), so the count may be below weight + 1.
// Writes the digits to `digits`, which has room for kMaxBase10000Digits (10000^10 > 2^128), and
// the weight to *weight (0 for zero); returns the number of digits. The dropped trailing zeros may
// be written after them, within that room.
constexpr int kMaxBase10000Digits = 10;
int to_base10000(u128 v, std::int16_t* digits, int* weight) noexcept;

enum class Base10000Status { ok, not_integer, too_large };
// The inverse for any digit array PostgreSQL may hold: digits after the decimal point must be
// zero (5.000 is the integer 5) and the value must not exceed max.
Base10000Status from_base10000(const std::int16_t* digits, int ndigits, int weight, u128 max,
                               u128* out) noexcept;

// The two-bigint form of DistributedId128 (upper = high 64 bits, lower = low 64 bits). Splitting
// fails when either half has its top bit set; joining fails when either half is negative.
bool split_u128(u128 v, std::int64_t* upper, std::int64_t* lower) noexcept;
bool join_u128(std::int64_t upper, std::int64_t lower, u128* out) noexcept;

}  // namespace idgen
