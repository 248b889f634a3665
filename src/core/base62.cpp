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

// Two base-62 numbers side by side: the first HighChars characters, then the LowChars after them
// (the two blocks of the 22- and 16-character forms, or a bigint's two halves). Their
// multiply-add chains do not depend on each other: decoded in one loop they run side by side, in
// about the time of one (the chain, not the table loads, bounds a number). 62^10 < 2^64, so ten
// digits never overflow and only an eleventh is checked (the reference lets a block wrap; idgen
// rejects it). Returns false for a character outside the alphabet (the caller finds which one
// with check()); `*overflow` says whether a number wrapped.
template <std::size_t HighChars, std::size_t LowChars>
bool decode_two_numbers(const char* text, std::uint64_t* hi, std::uint64_t* lo,
                        bool* overflow) noexcept {
  static_assert(HighChars <= LowChars && LowChars <= kBlockChars);
  const char* low = text + HighChars;
  constexpr std::size_t kLowSafe = LowChars < kBlockChars ? LowChars : kBlockChars - 1;
  constexpr std::size_t kHighSafe = HighChars < kBlockChars ? HighChars : kBlockChars - 1;
  std::uint64_t h = 0;
  std::uint64_t l = 0;
  unsigned seen = 0;
  // Unrolled: no loop counter or test of i against kHighSafe is left between the characters.
#pragma GCC unroll 10
  for (std::size_t i = 0; i < kLowSafe; ++i) {
    const std::uint8_t dl = digit_of(low[i]);
    seen |= dl;
    l = l * 62 + dl;
    if (i < kHighSafe) {
      const std::uint8_t dh = digit_of(text[i]);
      seen |= dh;
      h = h * 62 + dh;
    }
  }
  bool wrapped = false;
  if constexpr (HighChars == kBlockChars) {
    const std::uint8_t dh = digit_of(text[kBlockChars - 1]);
    seen |= dh;
    wrapped |= __builtin_mul_overflow(h, std::uint64_t{62}, &h);
    wrapped |= __builtin_add_overflow(h, std::uint64_t{dh}, &h);
  }
  if constexpr (LowChars == kBlockChars) {
    const std::uint8_t dl = digit_of(low[kBlockChars - 1]);
    seen |= dl;
    wrapped |= __builtin_mul_overflow(l, std::uint64_t{62}, &l);
    wrapped |= __builtin_add_overflow(l, std::uint64_t{dl}, &l);
  }
  if ((seen & 0x80U) != 0) return false;
  *hi = h;
  *lo = l;
  *overflow = wrapped;
  return true;
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

// A bigint as two numbers, its first 5 characters and its last 6, each short enough not to
// overflow, joined as first * 62^6 + last, the only step that can pass 2^64 - 1.
DecodeResult decode_u64(const char* text, std::size_t len, std::uint64_t* out) noexcept {
  constexpr std::size_t kFirstChars = 5;
  constexpr std::size_t kLastChars = kU64Chars - kFirstChars;
  constexpr std::uint64_t kLastScale = 56800235584;  // 62^6
  if (len != kU64Chars) return check(text, len, kU64Chars);
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  bool overflow = false;
  if (!decode_two_numbers<kFirstChars, kLastChars>(text, &first, &last, &overflow)) {
    return check(text, len, kU64Chars);
  }
  std::uint64_t v = 0;
  overflow |= __builtin_mul_overflow(first, kLastScale, &v);
  overflow |= __builtin_add_overflow(v, last, &v);
  if (overflow) return {DecodeStatus::out_of_range, 0};
  *out = v;
  return {DecodeStatus::ok, 0};
}

DecodeResult decode_u128(const char* text, std::size_t len, u128* out) noexcept {
  if (len != kU128Chars) return check(text, len, kU128Chars);
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  bool overflow = false;
  if (!decode_two_numbers<kBlockChars, kBlockChars>(text, &hi, &lo, &overflow)) {
    return check(text, len, kU128Chars);
  }
  if (overflow) return {DecodeStatus::out_of_range, 0};
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
  bool overflow = false;
  if (!decode_two_numbers<kHighChars, kBlockChars>(text, &hi, &lo, &overflow)) {
    return check(text, len, kDecimal28Chars);
  }
  const u128 v = u128_from_halves(hi, lo);
  if (overflow || v > kDecimal28Max) return {DecodeStatus::out_of_range, 0};
  *out = v;
  return {DecodeStatus::ok, 0};
}

}  // namespace idgen::base62
