// Strict base64 decoding; see base64.hpp.
#include "core/base64.hpp"

#include <openssl/crypto.h>

namespace idgen::base64 {
namespace {

// -1 when lo <= c <= hi, else 0, without a branch (c, lo, hi in 0..255). Each difference is
// negative exactly when c is on the wrong side of one bound, so the AND is negative only inside,
// and the arithmetic shift spreads its sign.
constexpr int in_range_mask(int c, int lo, int hi) noexcept {
  return ((lo - 1 - c) & (c - hi - 1)) >> 8;
}

// The 6-bit value of a base64 character, or -1, with no lookup indexed by the character.
constexpr int sextet(unsigned char ch) noexcept {
  const int c = ch;
  int v = -1;
  v += in_range_mask(c, 'A', 'Z') & (c - 'A' + 1);
  v += in_range_mask(c, 'a', 'z') & (c - 'a' + 26 + 1);
  v += in_range_mask(c, '0', '9') & (c - '0' + 52 + 1);
  v += in_range_mask(c, '+', '+') & (62 + 1);
  v += in_range_mask(c, '/', '/') & (63 + 1);
  return v;
}

static_assert(sextet('A') == 0 && sextet('Z') == 25 && sextet('a') == 26 && sextet('z') == 51);
static_assert(sextet('0') == 52 && sextet('9') == 61 && sextet('+') == 62 && sextet('/') == 63);
static_assert(sextet('=') == -1 && sextet('@') == -1 && sextet('[') == -1 && sextet(0xff) == -1);

Base64Result fail(Base64Status status, std::size_t position, std::uint8_t* out,
                  std::size_t cap) noexcept {
  OPENSSL_cleanse(out, cap);
  return {status, position, 0};
}

}  // namespace

Base64Result decode(const char* text, std::size_t len, std::uint8_t* out,
                    std::size_t cap) noexcept {
  if (len == 0 || len % 4 != 0) return fail(Base64Status::bad_length, 0, out, cap);
  // Padding is one or two '=' at the very end; it tells only the length of what is encoded.
  std::size_t pad = 0;
  if (text[len - 1] == '=') pad = text[len - 2] == '=' ? 2 : 1;
  const std::size_t data_chars = len - pad;
  const std::size_t decoded = len / 4 * 3 - pad;
  if (decoded > cap) return {Base64Status::too_long, 0, decoded};

  std::uint32_t acc = 0;
  std::size_t bits = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < data_chars; ++i) {
    const int v = sextet(static_cast<unsigned char>(text[i]));
    if (v < 0) return fail(Base64Status::bad_character, i, out, cap);
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = static_cast<std::uint8_t>(acc >> bits);
      acc &= (1u << bits) - 1;
    }
  }
  // What is left (2 or 4 bits after padding) must be zero, or two texts would decode alike.
  if (acc != 0) return fail(Base64Status::bad_padding, data_chars - 1, out, cap);
  return {Base64Status::ok, 0, n};
}

}  // namespace idgen::base64
