// The generator mark (docs/durability.md): a Unix ms that no id of a server-wide generator has a
// later time than. It is made durable before any id passes it, and a server that starts (after a
// crash, a restart, a promotion, a restore) starts its generators' clock after it, so no id is
// handed out twice or below an earlier one whatever the wall clock says.
//
// Ids' times stay within kIdSpreadMs of the generator clock's reading: UUIDv7, DistributedId128 and
// Snowflake may lead it by up to 1 s when more ids are asked for than their formats hold per ms.
// (DistributedId's timestamp trails the clock by the reference library's 1 s leeway; after a
// start its shared state is placed after the mark instead, so its ids need no further clock floor.)
// The mark is written up to kLeadMs past the clock, so that it is raised about twice a second.
//
// After a start the clock itself is ahead of the wall clock (it continues after the mark), and a
// mark written kLeadMs past it would leave the next start further ahead still: a crash loop would
// push ids ahead by about 2 s per crash. So while the clock leads the wall clock, a mark goes no
// further than kLeadMs past the wall clock, or than the start's clock plus the real time since the
// start, whichever is further: the next start's clock then leads the wall clock by no more than
// this start's did, or than kLeadMs, however fast crashes follow one another.
//
// On disk and in WAL the mark is 16 bytes: "idgm", the mark as a big-endian int64, and the
// CRC-32C of those 12 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/id_spread.hpp"
#include "core/server_clock.hpp"

namespace idgen::generator_mark {

constexpr std::int64_t kIdSpreadMs = idgen::kIdSpreadMs;
constexpr std::int64_t kWindowMs = 1000;
constexpr std::int64_t kLeadMs = kIdSpreadMs + kWindowMs;
constexpr std::size_t kEncodedBytes = 16;

// Whether an id whose time is id_ms may be handed out under the mark.
constexpr bool covers(std::int64_t mark_ms, std::int64_t id_ms) noexcept {
  return id_ms <= mark_ms;
}

// How far past the generator clock's reading clock_ms the next mark may go, at wall clock wall_ms,
// since_start_ms of real time after the server's clock last started after a mark: kLeadMs while
// the clock is on the wall clock; while it leads it, the further of kLeadMs past the wall clock
// and the real time since the start less the clock's own progress (it runs at 1/kSlewDivisor of
// real time while ahead), at most kLeadMs. It can be 0 right after a start that leads the wall
// clock by kLeadMs or more (a step back, or crashes in a row): the mark then covers the id alone,
// and grows with the time since the start.
constexpr std::int64_t margin(std::int64_t clock_ms, std::int64_t wall_ms,
                              std::int64_t since_start_ms) noexcept {
  if (clock_ms <= wall_ms) return kLeadMs;
  const std::int64_t past_wall = wall_ms + kLeadMs - clock_ms;
  const std::int64_t since = since_start_ms > 0 ? since_start_ms : 0;
  const std::int64_t past_start = since - since / server_clock::kSlewDivisor;
  const std::int64_t m = past_wall > past_start ? past_wall : past_start;
  if (m < 0) return 0;
  return m < kLeadMs ? m : kLeadMs;
}

// The mark to write for a generator clock reading and the time of the id that needs it (its own
// clock reading when none does), margin_ms past the clock (margin()): an id that ran ahead of the
// clock gets at most a window beyond it.
constexpr std::int64_t next_mark(std::int64_t clock_ms, std::int64_t id_ms,
                                 std::int64_t margin_ms) noexcept {
  const std::int64_t by_clock = clock_ms + margin_ms;
  const std::int64_t by_id = id_ms + (margin_ms < kWindowMs ? margin_ms : kWindowMs);
  return by_clock > by_id ? by_clock : by_id;
}

// The clock reading from which a mark written margin_ms past the clock is raised again ahead of
// need, so that callers rarely wait for the write: half a window after the write at most (the
// mark then still lies kIdSpreadMs and half a window ahead), half the margin after it when the
// margin is smaller.
constexpr std::int64_t raise_point(std::int64_t mark_ms, std::int64_t margin_ms) noexcept {
  const std::int64_t half = margin_ms / 2;
  return mark_ms - margin_ms + (half < kWindowMs / 2 ? half : kWindowMs / 2);
}

// Where the generator clock starts on a server whose generators made ids up to the mark: every
// new id has a later time. (DistributedId, whose timestamp trails the clock, has its shared state
// placed after the mark as well.)
constexpr std::int64_t clock_floor_us(std::int64_t mark_ms) noexcept {
  return (mark_ms + 1) * 1000;
}

void encode(std::int64_t mark_ms, std::uint8_t* out) noexcept;
// nullopt for anything but kEncodedBytes bytes that encode() wrote.
std::optional<std::int64_t> decode(const std::uint8_t* bytes, std::size_t n) noexcept;

}  // namespace idgen::generator_mark
