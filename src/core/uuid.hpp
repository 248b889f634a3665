// The 16-byte UUID value every family builds on, and the RFC 9562 version/variant fields.
// Pure C++17; no PostgreSQL headers (src/pg converts to and from pg_uuid_t).
#pragma once

#include <array>
#include <cstdint>

#include "core/stack_safe.hpp"

namespace idgen {

struct Uuid {
  std::array<std::uint8_t, 16> bytes{};
};
IDGEN_STACK_SAFE(Uuid);

// The version nibble (high nibble of byte 6).
constexpr int uuid_version(const Uuid& u) noexcept { return u.bytes[6] >> 4; }

// The top two bits of byte 8; 0b10 is the RFC 4122/9562 variant.
constexpr int uuid_variant_bits(const Uuid& u) noexcept { return u.bytes[8] >> 6; }

constexpr bool uuid_has_rfc_variant(const Uuid& u) noexcept { return uuid_variant_bits(u) == 0b10; }

// Overwrites the version nibble and the two variant bits, leaving every other bit as it was.
constexpr void uuid_set_version_and_rfc_variant(Uuid& u, int version) noexcept {
  u.bytes[6] = static_cast<std::uint8_t>((u.bytes[6] & 0x0f) | (version << 4));
  u.bytes[8] = static_cast<std::uint8_t>((u.bytes[8] & 0x3f) | 0x80);
}

}  // namespace idgen
