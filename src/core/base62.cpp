// See base62.hpp.
#include "core/base62.hpp"

#include <array>
#include <cstdint>

namespace idgen::base62 {
namespace {

constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

constexpr std::uint8_t kNone = 0xff;

// Character -> digit value; kNone for anything outside the alphabet. One load per character
// where three range tests mispredicted on mixed-case ids.
constexpr std::array<std::uint8_t, 256> digit_table() {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = kNone;
  for (std::uint8_t i = 0; i < 62; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = i;
  return t;
}
constexpr std::array<std::uint8_t, 256> kDigits = digit_table();

std::uint8_t digit_of(char c) noexcept { return kDigits[static_cast<unsigned char>(c)]; }

void encode_block(std::uint64_t v, char* out) noexcept {
  for (int i = static_cast<int>(kBlockChars) - 1; i >= 0; --i) {
    out[i] = kAlphabet[v % 62];
    v /= 62;
  }
}

// Where a text that a decoder refused, or of the wrong length, fails: its first character
// outside the alphabet, else its length.
DecodeResult check(const char* text, std::size_t len, std::size_t expected) noexcept {
  for (std::size_t i = 0; i < len; ++i) {
    if (digit_of(text[i]) == kNone) return {DecodeStatus::bad_character, i};
  }
  if (len != expected) return {DecodeStatus::bad_length, 0};
  return {DecodeStatus::ok, 0};
}

constexpr std::uint64_t power_of_62(std::size_t n) noexcept {
  std::uint64_t p = 1;
  for (std::size_t i = 0; i < n; ++i) p *= 62;
  return p;
}

// The number that Chars characters spell, as a tree: the two halves' values are computed side by
// side and joined by one multiply-add, so the chain that bounds decoding is about log2(Chars)
// multiply-adds long, not Chars as a digit-by-digit loop's is. 62^10 < 2^64: no overflow. Every
// digit value is or-ed into *seen: a character outside the alphabet sets its bit 0x80.
template <std::size_t Chars>
[[gnu::always_inline]] inline std::uint64_t value_of(const char* text, unsigned* seen) noexcept {
  static_assert(Chars >= 1 && Chars < kBlockChars);
  if constexpr (Chars == 1) {
    const std::uint8_t digit = digit_of(text[0]);
    *seen |= digit;
    return digit;
  } else {
    constexpr std::size_t kLow = Chars / 2;
    return value_of<Chars - kLow>(text, seen) * power_of_62(kLow) +
           value_of<kLow>(text + Chars - kLow, seen);
  }
}

// An 11-character block: its first 5 digits times 62^6 plus its last 6, the one step that can pass
// 2^64 - 1 (62^11 > 2^64; the reference lets a block wrap, idgen rejects it). Returns false when
// it would.
[[gnu::always_inline]] inline bool block_value(const char* text, unsigned* seen,
                                               std::uint64_t* out) noexcept {
  constexpr std::size_t kFirst = 5;
  constexpr std::size_t kLast = kBlockChars - kFirst;
  bool wrapped = __builtin_mul_overflow(value_of<kFirst>(text, seen), power_of_62(kLast), out);
  wrapped |= __builtin_add_overflow(*out, value_of<kLast>(text + kFirst, seen), out);
  return !wrapped;
}

constexpr bool all_in_alphabet(unsigned seen) noexcept { return (seen & 0x80U) == 0; }

}  // namespace

void encode_u64(std::uint64_t v, char* out) noexcept { encode_block(v, out); }

void encode_u128(u128 v, char* out) noexcept {
  encode_block(u128_hi(v), out);
  encode_block(u128_lo(v), out + kBlockChars);
}

void encode_decimal28(u128 v, char* out) noexcept {
  char full[kU128Chars];
  encode_u128(v, full);
  // Below 10^28 < 62^5 * 2^64 the first 6 characters are always 0.
  for (std::size_t i = 0; i < kDecimal28Chars; ++i) out[i] = full[kU128Chars - kDecimal28Chars + i];
}

// A text outside the alphabet is told from one that overflows only after both are computed: the
// check is off the path of a valid id. check() then finds which character it was.
DecodeResult decode_u64(const char* text, std::size_t len, std::uint64_t* out) noexcept {
  if (len != kU64Chars) return check(text, len, kU64Chars);
  unsigned seen = 0;
  std::uint64_t v = 0;
  const bool fits = block_value(text, &seen, &v);
  if (!all_in_alphabet(seen)) return check(text, len, kU64Chars);
  if (!fits) return {DecodeStatus::out_of_range, 0};
  *out = v;
  return {DecodeStatus::ok, 0};
}

DecodeResult decode_u128(const char* text, std::size_t len, u128* out) noexcept {
  if (len != kU128Chars) return check(text, len, kU128Chars);
  unsigned seen = 0;
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  // & rather than &&: both blocks are decoded, each or-ing its digits into seen.
  const bool fits = block_value(text, &seen, &hi) & block_value(text + kBlockChars, &seen, &lo);
  if (!all_in_alphabet(seen)) return check(text, len, kU128Chars);
  if (!fits) return {DecodeStatus::out_of_range, 0};
  *out = u128_from_halves(hi, lo);
  return {DecodeStatus::ok, 0};
}

// The two-block form without its first 6 characters (always 0): the high block is the first 5
// characters, the low block the other 11.
DecodeResult decode_decimal28(const char* text, std::size_t len, u128* out) noexcept {
  constexpr std::size_t kHighChars = kDecimal28Chars - kBlockChars;
  if (len != kDecimal28Chars) return check(text, len, kDecimal28Chars);
  unsigned seen = 0;
  std::uint64_t lo = 0;
  const bool fits = block_value(text + kHighChars, &seen, &lo);
  const u128 v = u128_from_halves(value_of<kHighChars>(text, &seen), lo);
  if (!all_in_alphabet(seen)) return check(text, len, kDecimal28Chars);
  if (!fits || v > kDecimal28Max) return {DecodeStatus::out_of_range, 0};
  *out = v;
  return {DecodeStatus::ok, 0};
}

}  // namespace idgen::base62
