// The generator mark (docs/durability.md): a Unix ms that no id of a server-wide generator has a
// later time than. It is made durable before any id passes it, and a server that starts (after a
// crash, a restart, a promotion, a restore) starts its generators' clock after it, so no id is
// handed out twice or below an earlier one whatever the wall clock says.
//
// Ids' times stay within kIdSpreadMs of the generator clock's reading: UUIDv7, DistributedId128 and
// Snowflake may lead it by up to 1 s when more ids are asked for than their formats hold
// per ms, and DistributedId's timestamp trails it by the reference library's 1 s leeway. The mark
// is raised kWindowMs beyond need, so it is written at most about once a second.
//
// On disk and in WAL the mark is 16 bytes: "idgm", the mark as a big-endian int64, and the
// CRC-32C of those 12 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace idgen::generator_mark {

constexpr std::int64_t kIdSpreadMs = 1000;
constexpr std::int64_t kWindowMs = 1000;
constexpr std::size_t kEncodedBytes = 16;

// Whether an id whose time is id_ms may be handed out under the mark.
constexpr bool covers(std::int64_t mark_ms, std::int64_t id_ms) noexcept {
  return id_ms <= mark_ms;
}

// Whether a generator clock reading is close enough to the mark to raise it now, ahead of need
// (half a window before it), so that callers rarely wait for the write.
constexpr bool raise_due(std::int64_t mark_ms, std::int64_t clock_ms) noexcept {
  return clock_ms + kIdSpreadMs + kWindowMs / 2 > mark_ms;
}

// The mark to write for a generator clock reading and the time of the id that needs it.
constexpr std::int64_t next_mark(std::int64_t clock_ms, std::int64_t id_ms) noexcept {
  const std::int64_t needed = clock_ms + kIdSpreadMs > id_ms ? clock_ms + kIdSpreadMs : id_ms;
  return needed + kWindowMs;
}

// Where the generator clock starts on a server whose generators made ids up to the mark: new ids,
// however far their time trails the clock, sort after every earlier one.
constexpr std::int64_t clock_floor_us(std::int64_t mark_ms) noexcept {
  return (mark_ms + kIdSpreadMs + 1) * 1000;
}

void encode(std::int64_t mark_ms, std::uint8_t* out) noexcept;
// nullopt for anything but kEncodedBytes bytes that encode() wrote.
std::optional<std::int64_t> decode(const std::uint8_t* bytes, std::size_t n) noexcept;

}  // namespace idgen::generator_mark
