// See hex.hpp.
#include "core/hex.hpp"

namespace idgen::hex {
namespace {

constexpr char kDigits[] = "0123456789ABCDEF";
constexpr char kLower[] = "0123456789abcdef";

int digit_value(unsigned char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Writes the low `chars` hex digits of v.
void encode(u128 v, std::size_t chars, char* out) noexcept {
  for (std::size_t i = chars; i-- > 0;) {
    out[i] = kDigits[static_cast<unsigned>(v & 0xf)];
    v >>= 4;
  }
}

// Exactly `expected` hex digits (at most 32, so the value fits).
DecodeResult decode(const char* text, std::size_t len, std::size_t expected, u128* out) noexcept {
  u128 v = 0;
  for (std::size_t i = 0; i < len; ++i) {
    const int d = digit_value(static_cast<unsigned char>(text[i]));
    if (d < 0) return {DecodeStatus::bad_character, i};
    v = (v << 4) | static_cast<unsigned>(d);
  }
  if (len != expected) return {DecodeStatus::bad_length, 0};
  *out = v;
  return {DecodeStatus::ok, 0};
}

}  // namespace

void encode_u64(std::uint64_t v, char* out) noexcept { encode(v, kU64Chars, out); }
void encode_u128(u128 v, char* out) noexcept { encode(v, kU128Chars, out); }
void encode_decimal28(u128 v, char* out) noexcept { encode(v, kDecimal28Chars, out); }

DecodeResult decode_u64(const char* text, std::size_t len, std::uint64_t* out) noexcept {
  u128 v = 0;
  const DecodeResult r = decode(text, len, kU64Chars, &v);
  if (r.status == DecodeStatus::ok) *out = static_cast<std::uint64_t>(v);
  return r;
}

DecodeResult decode_u128(const char* text, std::size_t len, u128* out) noexcept {
  return decode(text, len, kU128Chars, out);
}

DecodeResult decode_decimal28(const char* text, std::size_t len, u128* out) noexcept {
  u128 v = 0;
  const DecodeResult r = decode(text, len, kDecimal28Chars, &v);
  if (r.status != DecodeStatus::ok) return r;
  // The first byte (two characters) must be 00, and the value a DistributedId.
  if ((v >> 96) != 0 || v > kDecimal28Max) return {DecodeStatus::out_of_range, 0};
  *out = v;
  return r;
}

void encode_lower(std::uint64_t v, std::size_t chars, char* out) noexcept {
  for (std::size_t i = chars; i-- > 0;) {
    out[i] = kLower[v & 0xf];
    v >>= 4;
  }
}

std::size_t encode_u64_minimal(std::uint64_t v, char* out) noexcept {
  std::size_t n = 1;
  while (n < kU64Chars && (v >> (4 * n)) != 0) ++n;
  encode_lower(v, n, out);
  return n;
}

DecodeResult decode_u64_any_width(const char* text, std::size_t len, std::uint64_t max,
                                  std::uint64_t* out) noexcept {
  if (len == 0) return {DecodeStatus::bad_length, 0};
  std::uint64_t v = 0;
  bool over = false;
  for (std::size_t i = 0; i < len; ++i) {
    const int d = digit_value(static_cast<unsigned char>(text[i]));
    if (d < 0) return {DecodeStatus::bad_character, i};
    // Once past max the value only grows (digits never subtract); stop accumulating so the
    // shift cannot wrap back into range, but keep checking characters.
    if (!over) {
      over = v > (max >> 4) || ((v << 4) | static_cast<unsigned>(d)) > max;
      v = (v << 4) | static_cast<unsigned>(d);
    }
  }
  if (over) return {DecodeStatus::out_of_range, 0};
  *out = v;
  return {DecodeStatus::ok, 0};
}

}  // namespace idgen::hex
