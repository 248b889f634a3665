// Snowflake-style 64-bit ids: bit 63 zero (a non-negative bigint), 41 bits of ms since the epoch
// 2023-01-01 00:00:00 UTC, 10 bits of node number, 12 bits of sequence:
//   id = (ms since epoch << 22) | (node << 12) | sequence
// Ids of one node increase; the time bits last until 2092-09-06.
//
// The generator state is the last id's (ms since epoch << 12) | sequence. A step returns the
// clock's ms with sequence 0 once the clock has passed the last id's ms; otherwise the last
// value plus one within the last id's ms (so a clock set back never gives a smaller or repeated
// value: ids continue from the last one, at its ms). Once that ms's 4096 values are used:
// - Lead::bounded (the server's generator): the ids continue with sequence 0 of the next ms, ahead
//   of the clock, as pgEdge's extension does, as long as that ms is at most kMaxLeadMs ahead of
//   the clock; past that the caller waits until the clock is within kMaxLeadMs of it. A burst
//   thus runs at the speed of the caller, not of the layout, for up to 4 million ids, and the
//   rate settles at 4096 ids per ms after that.
// - Lead::none (a session's generator on a pinned clock): the caller waits until the clock passes
//   the full ms (on a pinned clock, for ever: it is refused instead).
//
// pgEdge's snowflake extension (1.2 and later) uses this layout and epoch: its ids read the same.
#pragma once

#include <cstdint>
#include <optional>

#include "core/id_spread.hpp"
#include "core/stack_safe.hpp"

namespace idgen::snowflake {

constexpr std::int64_t kEpochUnixMs = 1672531200000;  // 2023-01-01 00:00:00 UTC
constexpr int kSequenceBits = 12;
constexpr int kNodeBits = 10;
constexpr int kTimeShift = kSequenceBits + kNodeBits;
constexpr std::uint64_t kMaxSequence = (1u << kSequenceBits) - 1;
constexpr int kMaxNode = (1 << kNodeBits) - 1;
constexpr std::uint64_t kMaxTime = (std::uint64_t{1} << 41) - 1;
// The most an id's ms may lead the clock reading it was made at: 1 s, as UUIDv7's lead, the
// spread the generator mark covers, so ids that ran ahead are never made again after a crash.
constexpr std::int64_t kMaxLeadMs = kIdSpreadMs;

enum class Lead {
  bounded,  // the real clock: a full ms carries into the next, up to kMaxLeadMs ahead
  none,     // a pinned clock: a full ms waits for the clock to pass it
};

enum class StepKind { id, wait, out_of_range };

struct Step {
  StepKind kind;
  std::uint64_t value;             // for id: (ms since epoch << 12) | sequence
  std::int64_t wait_past_unix_ms;  // for wait: the Unix ms the clock must pass
};
IDGEN_STACK_SAFE(Step);

// The step after `last` (0 for a fresh generator) at now_unix_ms; a pure function, for a
// compare-and-swap on a shared word. out_of_range: the clock is before the epoch, or the id's ms
// after 2092.
Step next_value(std::uint64_t last, std::int64_t now_unix_ms, Lead lead) noexcept;

// The id of a step's value on a node (0 .. kMaxNode).
std::int64_t compose(std::uint64_t value, int node) noexcept;

struct Parts {
  std::int64_t unix_ms;
  int node;
  int sequence;
};
IDGEN_STACK_SAFE(Parts);
// The parts of a non-negative id.
Parts parts(std::int64_t id) noexcept;

// The smallest id of an instant (ms, floor): the lower bound of a range scan; nullopt before the
// epoch or past the 41 bits.
std::optional<std::int64_t> bound(std::int64_t unix_ms) noexcept;

}  // namespace idgen::snowflake
