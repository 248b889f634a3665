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

// The value of n characters (n <= 11), checking the characters as it goes. 62^10 < 2^64, so ten
// digits never overflow and only the eleventh is checked (the reference lets a block wrap;
// idgen rejects it). Returns false for a character outside the alphabet (`*overflow` is then
// meaningless); the caller finds which one with check().
bool decode_digits(const char* text, std::size_t n, std::uint64_t* out, bool* overflow) noexcept {
  std::uint64_t v = 0;
  unsigned seen = 0;  // the OR of every digit: kNone's top bit marks a bad character
  const std::size_t safe = n < kBlockChars ? n : kBlockChars - 1;
  for (std::size_t i = 0; i < safe; ++i) {
    const std::uint8_t d = digit_of(text[i]);
    seen |= d;
    v = v * 62 + d;
  }
  bool wrapped = false;
  if (n == kBlockChars) {
    const std::uint8_t d = digit_of(text[kBlockChars - 1]);
    seen |= d;
    wrapped = __builtin_mul_overflow(v, std::uint64_t{62}, &v);
    wrapped |= __builtin_add_overflow(v, std::uint64_t{d}, &v);
  }
  if ((seen & 0x80U) != 0) return false;
  *overflow = wrapped;
  *out = v;
  return true;
}

// Where a text that decode_digits refused, or of the wrong length, fails: its first character
// outside the alphabet, else its length.
DecodeResult check(const char* text, std::size_t len, std::size_t expected) noexcept {
  for (std::size_t i = 0; i < len; ++i) {
    if (digit_of(text[i]) == kNone) return {DecodeStatus::bad_character, i};
  }
  if (len != expected) return {DecodeStatus::bad_length, 0};
  return {DecodeStatus::ok, 0};
}

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

DecodeResult decode_u64(const char* text, std::size_t len, std::uint64_t* out) noexcept {
  if (len != kU64Chars) return check(text, len, kU64Chars);
  bool overflow = false;
  if (!decode_digits(text, kBlockChars, out, &overflow)) return check(text, len, kU64Chars);
  if (overflow) return {DecodeStatus::out_of_range, 0};
  return {DecodeStatus::ok, 0};
}

DecodeResult decode_u128(const char* text, std::size_t len, u128* out) noexcept {
  if (len != kU128Chars) return check(text, len, kU128Chars);
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  bool hi_overflow = false;
  bool lo_overflow = false;
  if (!decode_digits(text, kBlockChars, &hi, &hi_overflow) ||
      !decode_digits(text + kBlockChars, kBlockChars, &lo, &lo_overflow)) {
    return check(text, len, kU128Chars);
  }
  if (hi_overflow || lo_overflow) return {DecodeStatus::out_of_range, 0};
  *out = u128_from_halves(hi, lo);
  return {DecodeStatus::ok, 0};
}

// The two-block form without its first 6 characters (always 0): the high block is the first 5
// characters, the low block the other 11.
DecodeResult decode_decimal28(const char* text, std::size_t len, u128* out) noexcept {
  constexpr std::size_t kHighChars = kDecimal28Chars - kBlockChars;
  if (len != kDecimal28Chars) return check(text, len, kDecimal28Chars);
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  bool hi_overflow = false;
  bool lo_overflow = false;
  if (!decode_digits(text, kHighChars, &hi, &hi_overflow) ||
      !decode_digits(text + kHighChars, kBlockChars, &lo, &lo_overflow)) {
    return check(text, len, kDecimal28Chars);
  }
  const u128 v = u128_from_halves(hi, lo);
  if (lo_overflow || v > kDecimal28Max) return {DecodeStatus::out_of_range, 0};
  *out = v;
  return {DecodeStatus::ok, 0};
}

}  // namespace idgen::base62
