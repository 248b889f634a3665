// See base62.hpp.
#include "core/base62.hpp"

namespace idgen::base62 {
namespace {

constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Digit value of an ASCII character, or -1.
int digit_value(unsigned char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  if (c >= 'a' && c <= 'z') return c - 'a' + 36;
  return -1;
}

void encode_block(std::uint64_t v, char* out) noexcept {
  for (int i = static_cast<int>(kBlockChars) - 1; i >= 0; --i) {
    out[i] = kAlphabet[v % 62];
    v /= 62;
  }
}

// 11 characters, already checked to be in the alphabet. 62^11 > 2^64, so the sum is formed in
// 128 bits and compared with 2^64 - 1 instead of being allowed to wrap as in the reference.
bool decode_block(const char* text, std::uint64_t* out) noexcept {
  u128 v = 0;
  for (std::size_t i = 0; i < kBlockChars; ++i) {
    v = v * 62 + static_cast<u128>(digit_value(static_cast<unsigned char>(text[i])));
  }
  if (v > u128{UINT64_MAX}) return false;
  *out = static_cast<std::uint64_t>(v);
  return true;
}

DecodeResult check(const char* text, std::size_t len, std::size_t expected) noexcept {
  for (std::size_t i = 0; i < len; ++i) {
    if (digit_value(static_cast<unsigned char>(text[i])) < 0) {
      return {DecodeStatus::bad_character, i};
    }
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
  DecodeResult r = check(text, len, kU64Chars);
  if (r.status != DecodeStatus::ok) return r;
  if (!decode_block(text, out)) return {DecodeStatus::out_of_range, 0};
  return r;
}

DecodeResult decode_u128(const char* text, std::size_t len, u128* out) noexcept {
  DecodeResult r = check(text, len, kU128Chars);
  if (r.status != DecodeStatus::ok) return r;
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;
  if (!decode_block(text, &hi) || !decode_block(text + kBlockChars, &lo)) {
    return {DecodeStatus::out_of_range, 0};
  }
  *out = u128_from_halves(hi, lo);
  return r;
}

DecodeResult decode_decimal28(const char* text, std::size_t len, u128* out) noexcept {
  DecodeResult r = check(text, len, kDecimal28Chars);
  if (r.status != DecodeStatus::ok) return r;
  char full[kU128Chars];
  for (std::size_t i = 0; i < kU128Chars - kDecimal28Chars; ++i) full[i] = '0';
  for (std::size_t i = 0; i < kDecimal28Chars; ++i) {
    full[kU128Chars - kDecimal28Chars + i] = text[i];
  }
  u128 v = 0;
  r = decode_u128(full, kU128Chars, &v);
  if (r.status != DecodeStatus::ok) return r;
  if (v > kDecimal28Max) return {DecodeStatus::out_of_range, 0};
  *out = v;
  return r;
}

}  // namespace idgen::base62
