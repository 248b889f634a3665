// See crockford32.hpp. Character c (0 .. 25) holds bits 125 - 5c .. 129 - 5c of the value counted
// from the least significant; the two bits above 127 are the padding.
#include "core/crockford32.hpp"

#include <array>
#include <cstdint>

#include "core/uint128.hpp"

namespace idgen::crockford32 {
namespace {

constexpr char kUpper[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr char kLower[] = "0123456789abcdefghjkmnpqrstvwxyz";
constexpr std::uint8_t kNone = 0xff;

// Character -> 5-bit value for one reading; kNone for anything else.
constexpr std::array<std::uint8_t, 256> table(bool upper_too) {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = kNone;
  for (std::uint8_t i = 0; i < 32; ++i) {
    t[static_cast<unsigned char>(kLower[i])] = i;
    if (upper_too) t[static_cast<unsigned char>(kUpper[i])] = i;
  }
  return t;
}

constexpr std::array<std::uint8_t, 256> kAnyCase = table(true);
constexpr std::array<std::uint8_t, 256> kLowerOnly = table(false);

}  // namespace

void encode(const Uuid& value, Case letter_case, char* out) noexcept {
  const char* alphabet = letter_case == Case::upper ? kUpper : kLower;
  const u128 v = u128_from_uuid(value);
  // Each character's bits straight from the two 64-bit halves (character c's lowest bit is bit
  // 125 - 5c): 64-bit shifts by known amounts instead of a 128-bit shift per character.
  const std::uint64_t hi = u128_hi(v);
  const std::uint64_t lo = u128_lo(v);
  for (int c = 0; c < 13; ++c) out[c] = alphabet[(hi >> (61 - 5 * c)) & 31];
  out[13] = alphabet[((lo >> 60) | (hi << 4)) & 31];  // bits 60 .. 64 span both halves
  for (int c = 14; c < 26; ++c) out[c] = alphabet[(lo >> (125 - 5 * c)) & 31];
}

DecodeResult decode(const char* text, std::size_t len, Reading reading, Uuid* out) noexcept {
  const auto& lookup = reading == Reading::any_case ? kAnyCase : kLowerOnly;
  // Characters before length: "01ARZ-..." or a multibyte letter is reported as the character it
  // is, not as a length that only counts bytes.
  for (std::size_t i = 0; i < len; ++i) {
    if (lookup[static_cast<unsigned char>(text[i])] == kNone)
      return {DecodeStatus::bad_character, i};
  }
  if (len != kChars) return {DecodeStatus::bad_length, 0};
  u128 v = 0;
  for (std::size_t i = 0; i < kChars; ++i)
    v = (v << 5) | lookup[static_cast<unsigned char>(text[i])];
  // The first character's top two bits fell off the 128-bit value: they must have been zero.
  if (lookup[static_cast<unsigned char>(text[0])] > 7) return {DecodeStatus::out_of_range, 0};
  *out = uuid_from_u128(v);
  return {DecodeStatus::ok, 0};
}

}  // namespace idgen::crockford32
