// Public identities; see public_id.hpp and docs/public-id.md.
#include "core/public_id.hpp"

#include <cstring>

#include <openssl/crypto.h>

#include "core/byte_order.hpp"
#include "core/hex.hpp"

namespace idgen::public_id {
namespace {

// OR of p[0..n): zero exactly when all n bytes are zero; looks at every byte.
std::uint32_t or_of(const std::uint8_t* p, int n) noexcept {
  std::uint32_t acc = 0;
  for (int i = 0; i < n; ++i) acc |= p[i];
  return acc;
}

bool is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

Uuid plaintext_of_u64(std::uint64_t v) noexcept {
  Uuid p;
  store_le64(&p.bytes[8], v);
  return p;
}

Uuid plaintext_of_decimal28(u128 v) noexcept {
  Uuid p;
  store_le32(&p.bytes[4], static_cast<std::uint32_t>(u128_hi(v)));  // hi: v < 10^28 < 2^96
  store_le64(&p.bytes[8], u128_lo(v));                              // LE32(lo) then LE32(mid)
  return p;
}

bool bigint_of_plaintext(const Uuid& p, std::int64_t* out) noexcept {
  const std::uint64_t v = load_le64(&p.bytes[8]);
  // Bytes 0-7 and the top bit of the value (byte 15's high bit) must all be zero.
  const std::uint32_t bad = or_of(p.bytes.data(), 8) | (p.bytes[15] & 0x80u);
  *out = static_cast<std::int64_t>(v & 0x7fffffffffffffffULL);
  return bad == 0;
}

bool decimal28_of_plaintext(const Uuid& p, u128* out) noexcept {
  const std::uint64_t hi = load_le32(&p.bytes[4]);
  const std::uint64_t lo = load_le32(&p.bytes[8]);
  const std::uint64_t mid = load_le32(&p.bytes[12]);
  const u128 v = u128_from_halves(hi, (mid << 32) | lo);
  // v < 2^96, so kDecimal28Max - v wraps past 2^127 exactly when v is too large: the top bit of
  // the difference is the borrow, computed without a comparison branch.
  const auto over = static_cast<std::uint32_t>((kDecimal28Max - v) >> 127);
  const std::uint32_t bad = or_of(p.bytes.data(), 4) | over;
  *out = v;
  return bad == 0;
}

Uuid guid_swap(const Uuid& u) noexcept {
  static constexpr int kFrom[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
  Uuid out;
  for (int i = 0; i < 16; ++i) out.bytes[i] = u.bytes[kFrom[i]];
  return out;
}

bool encrypt(const AesBlockCipher& cipher, const Uuid& plaintext, Uuid* public_id) noexcept {
  Uuid c;
  if (!cipher.encrypt(plaintext.bytes.data(), c.bytes.data())) return false;
  *public_id = guid_swap(c);
  return true;
}

bool key_check_value(const AesBlockCipher& cipher, char out[kKeyCheckChars]) noexcept {
  const std::uint8_t zero[16] = {};
  std::uint8_t block[16];
  if (!cipher.encrypt(zero, block)) return false;
  const std::uint64_t first = (std::uint64_t{block[0]} << 16) | (block[1] << 8) | block[2];
  hex::encode_lower(first, kKeyCheckChars, out);
  return true;
}

bool decrypt(const AesBlockCipher& cipher, const Uuid& public_id, Uuid* plaintext) noexcept {
  const Uuid c = guid_swap(public_id);
  return cipher.decrypt(c.bytes.data(), plaintext->bytes.data());
}

KeyParse parse_key_base64(const char* text, std::size_t len,
                          std::uint8_t key[AesBlockCipher::kMaxKeyLength]) noexcept {
  std::size_t begin = 0;
  std::size_t end = len;
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  if (begin == end) {
    OPENSSL_cleanse(key, AesBlockCipher::kMaxKeyLength);
    return {KeyStatus::empty, {}, 0};
  }
  base64::Base64Result r =
      base64::decode(text + begin, end - begin, key, AesBlockCipher::kMaxKeyLength);
  switch (r.status) {
    case base64::Base64Status::ok:
      if (is_aes_key_length(r.decoded)) return {KeyStatus::ok, r, r.decoded};
      OPENSSL_cleanse(key, AesBlockCipher::kMaxKeyLength);
      return {KeyStatus::wrong_length, r, r.decoded};
    case base64::Base64Status::too_long:
      OPENSSL_cleanse(key, AesBlockCipher::kMaxKeyLength);
      return {KeyStatus::wrong_length, r, r.decoded};
    default:
      r.position += begin;
      return {KeyStatus::not_base64, r, 0};
  }
}

KeyRingParse parse_key_ring(const char* text, std::size_t len,
                            std::uint8_t keys[kMaxRingKeys][AesBlockCipher::kMaxKeyLength],
                            std::size_t lengths[kMaxRingKeys]) noexcept {
  KeyRingParse r{{KeyStatus::ok, {}, 0}, 0, 0, 0, true};
  std::size_t lines = 0;
  for (std::size_t at = 0; at < len;) {
    std::size_t end = at;
    while (end < len && text[end] != '\n') ++end;
    std::size_t first = at;
    while (first < end && is_space(text[first])) ++first;
    if (first < end) ++lines;
    at = end + 1;
  }
  r.one_line = lines <= 1;
  if (lines > kMaxRingKeys) {
    r.key.status = KeyStatus::too_many;
    r.count = lines;
    r.bad_key = kMaxRingKeys + 1;
  }
  for (std::size_t at = 0; at < len && r.key.status == KeyStatus::ok;) {
    std::size_t end = at;
    while (end < len && text[end] != '\n') ++end;
    std::size_t first = at;
    while (first < end && is_space(text[first])) ++first;
    if (first < end) {
      const std::size_t n = r.count;
      KeyParse k = parse_key_base64(text + at, end - at, keys[n]);
      if (k.status != KeyStatus::ok) {
        if (k.status == KeyStatus::not_base64) k.base64.position += at;
        r.key = k;
        r.bad_key = n + 1;
        break;
      }
      lengths[n] = k.length;
      r.count = n + 1;
      for (std::size_t i = 0; i < n; ++i) {
        if (lengths[i] == k.length && CRYPTO_memcmp(keys[i], keys[n], k.length) == 0) {
          r.key.status = KeyStatus::duplicate;
          r.bad_key = n + 1;
          r.same_as = i + 1;
          break;
        }
      }
    }
    at = end + 1;
  }
  if (r.key.status == KeyStatus::ok && r.count == 0) r.key.status = KeyStatus::empty;
  if (r.key.status != KeyStatus::ok) {
    OPENSSL_cleanse(keys, kMaxRingKeys * AesBlockCipher::kMaxKeyLength);
    r.count = r.key.status == KeyStatus::too_many ? r.count : 0;
  } else {
    r.key.length = lengths[0];
  }
  return r;
}

std::size_t first_valid(const Uuid* candidates, std::size_t n, bool (*valid)(const Uuid&),
                        Uuid* chosen) noexcept {
  std::size_t number = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // take is all ones for the first valid candidate, zero otherwise.
    const std::size_t ok = valid(candidates[i]) ? 1 : 0;
    const std::size_t none_yet = static_cast<std::size_t>(number == 0);
    const std::size_t take = std::size_t{0} - (ok & none_yet);
    number |= (i + 1) & take;
    const auto take_byte = static_cast<std::uint8_t>(take);
    for (int b = 0; b < 16; ++b) {
      chosen->bytes[b] = static_cast<std::uint8_t>((chosen->bytes[b] & ~take_byte) |
                                                   (candidates[i].bytes[b] & take_byte));
    }
  }
  return number;
}

bool is_bigint_plaintext(const Uuid& p) noexcept {
  std::int64_t ignored = 0;
  return bigint_of_plaintext(p, &ignored);
}

bool is_decimal28_plaintext(const Uuid& p) noexcept {
  u128 ignored = 0;
  return decimal28_of_plaintext(p, &ignored);
}

}  // namespace idgen::public_id
