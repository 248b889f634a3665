// Public identities (docs/public-id.md): a keyed, reversible disguise of an internal id as 16
// bytes, byte-exact with Architect.Identities' AesPublicIdentityConverter.
//
//   id --(layout of its kind, 4)--> P --(AES, 3)--> C --(.NET Guid byte swap, 5)--> public uuid U
//
// Decoding runs the chain backwards, and the kind the caller asks for judges the fixed bytes of P
// (6). That judgement is constant-time in P: every check byte is examined on every call and only
// the final valid/invalid outcome is a branch, so timing tells nothing about how close a forgery
// came.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/aes_block.hpp"
#include "core/base64.hpp"
#include "core/stack_safe.hpp"
#include "core/uint128.hpp"
#include "core/uuid.hpp"

namespace idgen::public_id {

// ---- plaintext layouts (4) ---------------------------------------------------------------------

// 8 zero bytes, then LE64(v). The reference uses it for long and ulong alike.
Uuid plaintext_of_u64(std::uint64_t v) noexcept;
// .NET System.Decimal in memory with zero flags: 4 zero bytes, LE32(hi), LE32(lo), LE32(mid).
Uuid plaintext_of_decimal28(u128 v) noexcept;  // v <= kDecimal28Max
// The 16 bytes of the uuid (also the uint128 kind: BE128(v) is uuid_from_u128(v)).
constexpr Uuid plaintext_of_uuid(const Uuid& id) noexcept { return id; }

// ---- validation of a decrypted plaintext (6), constant-time
// --------------------------------------

// bigint: bytes 0-7 zero and LE64(P[8..15]) <= 2^63 - 1.
bool bigint_of_plaintext(const Uuid& p, std::int64_t* out) noexcept;
// decimal28: bytes 0-3 zero and hi * 2^64 + mid * 2^32 + lo <= 10^28 - 1.
bool decimal28_of_plaintext(const Uuid& p, u128* out) noexcept;

// ---- the cipher step and the Guid swap (3, 5)
// ----------------------------------------------------

// U from C and C from U: bytes 0-3, 4-5 and 6-7 reversed (a .NET Guid's little-endian fields).
Uuid guid_swap(const Uuid& u) noexcept;

// The key check value of the cipher's key: the first 3 bytes of the encryption of an all-zero
// block, as 6 lower-case hex digits (the KCV of payment-card key management). Nodes compare keys
// by it without showing them; it tells nothing new about the key, since the zero block is the
// plaintext of the public id of 0, which anyone who may call public_id can make. False only when
// the cipher has no key or OpenSSL failed.
constexpr std::size_t kKeyCheckChars = 6;
[[nodiscard]] bool key_check_value(const AesBlockCipher& cipher, char out[kKeyCheckChars]) noexcept;

// P -> U. False only when the cipher has no key or OpenSSL failed.
[[nodiscard]] bool encrypt(const AesBlockCipher& cipher, const Uuid& plaintext,
                           Uuid* public_id) noexcept;
// U -> P. False only when the cipher has no key or OpenSSL failed.
[[nodiscard]] bool decrypt(const AesBlockCipher& cipher, const Uuid& public_id,
                           Uuid* plaintext) noexcept;

// ---- the key as written in configuration (2)
// -------------------------------------------------------

enum class KeyStatus {
  ok,
  empty,         // nothing but white space
  not_base64,    // base64 rejected it (see base64 for the position)
  wrong_length,  // valid base64 of a length that is not 16, 24 or 32 bytes
  too_many,      // a key ring: more than kMaxRingKeys keys
  duplicate,     // a key ring: the same key twice
};

struct KeyParse {
  KeyStatus status;
  base64::Base64Result base64;  // not_base64: what base64 found; position counts from text[0]
  std::size_t length;           // ok / wrong_length: decoded bytes
};
IDGEN_STACK_SAFE(KeyParse);

// Reads base64 text (as a key file holds it: white space around it is ignored) into
// key[0..kMaxKeyLength). Anything but ok leaves key wiped.
KeyParse parse_key_base64(const char* text, std::size_t len,
                          std::uint8_t key[AesBlockCipher::kMaxKeyLength]) noexcept;

// ---- a key ring as a key file holds it (docs/public-id.md, "Rotating the key") ------------------
//
// One key per line, each as parse_key_base64 reads it; blank lines are skipped. The first key is
// the current one (it encodes), the others only decode, tried in the file's order after the
// current one. A file of one key is a ring of one: exactly what a key file held before rings.
constexpr std::size_t kMaxRingKeys = 8;

struct KeyRingParse {
  KeyParse key;         // ok, or what is wrong with key number `bad_key` (positions count from
                        // text[0]); too_many and duplicate carry no base64 result
  std::size_t count;    // ok: the number of keys; too_many: the number of non-blank lines
  std::size_t bad_key;  // not ok: the 1-based number of the key at fault
  std::size_t same_as;  // duplicate: the earlier key that key `bad_key` repeats
  bool one_line;        // the text has at most one non-blank line (messages then say "the key")
};
IDGEN_STACK_SAFE(KeyRingParse);

// Reads a key ring into keys[i][0..lengths[i]) for i < count. Anything but ok leaves every key
// wiped.
KeyRingParse parse_key_ring(const char* text, std::size_t len,
                            std::uint8_t keys[kMaxRingKeys][AesBlockCipher::kMaxKeyLength],
                            std::size_t lengths[kMaxRingKeys]) noexcept;

// The first of n candidate plaintexts (one per ring key, current first) that `valid` accepts:
// its 1-based number and *chosen = that plaintext, or 0 and *chosen unspecified. Every candidate
// is judged whichever comes first, and the choice is made with masks, so the time taken does not
// tell which key made a public id.
std::size_t first_valid(const Uuid* candidates, std::size_t n, bool (*valid)(const Uuid&),
                        Uuid* chosen) noexcept;
// The validity tests of first_valid for the two kinds whose plaintext has fixed bytes.
bool is_bigint_plaintext(const Uuid& p) noexcept;
bool is_decimal28_plaintext(const Uuid& p) noexcept;

}  // namespace idgen::public_id
