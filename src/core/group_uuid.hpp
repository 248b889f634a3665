// Group-key uuids (docs/group-uuid.md): a 48-bit sequential key and a 12-bit group inside a uuid,
// after the 2013 post "Embedding a Primary Key in a UUID / GUID for CQRS / ES".
//
//   bits   0..47  key      big-endian, 0 .. 2^48 - 1
//   bits  48..51  version  8 (RFC 9562 vendor layout), or 6 for the post's legacy ids
//   bits  52..63  group    0 .. 4095
//   bits  64..67  1010     the RFC variant and two fixed bits, as the post writes them
//   bits  68..127 random   60 bits
//
// Text: kkkkkkkk-kkkk-Vggg-arrr-rrrrrrrrrrrr. Ids sort by key first (uuid compares bytes).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/stack_safe.hpp"
#include "core/uuid.hpp"

namespace idgen::group_uuid {

constexpr std::uint64_t kMaxKey = (std::uint64_t{1} << 48) - 1;
constexpr int kMaxGroup = 4095;

// The post's 12-bit CRC over bytes, reproduced bit for bit: its parameters match no catalogued
// CRC-12.
int crc12_extend(int crc, const std::uint8_t* data, std::size_t len) noexcept;

// Continues a CRC-12: crc is the CRC of the bytes so far (0 for none), so
// crc12_extend(crc12_extend(0, a), b) is the CRC of a followed by b (long input goes in pieces).
inline int crc12(const std::uint8_t* data, std::size_t len) noexcept {
  return crc12_extend(0, data, len);
}

// Whether a version may be generated: 8, or 6 for the post's layout.
constexpr bool is_generated_version(int version) noexcept { return version == 8 || version == 6; }

// The id of key and group with version 8 or 6; random supplies the 60 random bits (its first 8
// bytes are used, 4 bits of them dropped). Preconditions: key <= kMaxKey, 0 <= group <= kMaxGroup,
// is_generated_version(version).
Uuid make(std::uint64_t key, int group, int version, const std::uint8_t random[8]) noexcept;

enum class Shape { ok, bad_version, bad_variant };

struct Parts {
  Shape shape;        // ok: version 6 or 8 and the RFC variant (10xx)
  std::uint64_t key;  // meaningful when ok
  int group;
  int version;  // the version nibble found, whatever the shape
};
IDGEN_STACK_SAFE(Parts);

Parts parts(const Uuid& id) noexcept;

}  // namespace idgen::group_uuid
