// Group-key uuids (spec group-uuid.md): a 48-bit sequential key and a 12-bit group inside a uuid,
// after the seed "Embedding a primary key in a UUID".
//
//   bits   0..47  key      big-endian, 0 .. 2^48 - 1
//   bits  48..51  version  8 (RFC 9562 vendor layout), or 6 for the seed's legacy ids
//   bits  52..63  group    0 .. 4095
//   bits  64..67  1010     the RFC variant and two fixed bits, as the seed writes them
//   bits  68..127 random   60 bits
//
// Text: kkkkkkkk-kkkk-Vggg-arrr-rrrrrrrrrrrr. Ids sort by key first (uuid compares bytes).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/uuid.hpp"

namespace idgen::group_uuid {

constexpr std::uint64_t kMaxKey = (std::uint64_t{1} << 48) - 1;
constexpr int kMaxGroup = 4095;

// The seed's 12-bit CRC over bytes (spec 2), reproduced bit for bit: its parameters match no
// catalogued CRC-12.
int crc12(const std::uint8_t* data, std::size_t len) noexcept;

// Whether a version may be generated: 8, or 6 for the seed's layout.
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

Parts parts(const Uuid& id) noexcept;

}  // namespace idgen::group_uuid
