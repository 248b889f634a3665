// RFC 9562 UUIDs: the version-7 generator, and version and timestamp of existing UUIDs.
//
// UUIDv7 layout (method 3 of RFC 9562 section 6.2, "replace leftmost random bits with increased
// clock precision"):
//   bytes 0-5   unix_ts_ms, 48 bits big-endian
//   byte 6-7    version 7, then rand_a = 12 bits of sub-millisecond time (1/4096 ms steps)
//   byte 8-15   variant 10, then 62 random bits
// Per generator, (unix_ts_ms, rand_a) strictly increases: when the clock has not moved past the
// previous value (more than 4096 ids in one ms, or a clock that went back) the previous value
// plus one step is used, so ids stay unique and ordered and the embedded time runs ahead of the
// clock until the clock catches up.
//
// How far ahead is bounded (kMaxLeadSteps, 1 s) for generators on the real clock: a caller that
// asks for more than 4096 ids per ms (one session, or many sharing a server-wide generator) would
// otherwise push every later id's time further into the future without limit. At the bound the
// step asks the caller to wait about 1 ms and try again, so the rate settles at 4096 ids per ms.
// A clock that went back is absorbed the same way: up to the bound without waiting, then by
// waiting; but a clock more than kResetBehindSteps past the bound (more than 2 s behind the
// previous id) restarts the generator from the clock instead of making every caller wait out the
// difference, and that one id sorts below its predecessor.
// A session's private test generator (Lead::unbounded) keeps the unbounded rule: on a pinned
// clock, which never moves, a bound would wait forever.
#pragma once

#include <cstdint>
#include <optional>

#include "core/id_spread.hpp"
#include "core/stack_safe.hpp"
#include "core/uuid.hpp"

namespace idgen::rfc9562 {

constexpr int kRandomBytes = 8;  // rand_b (62 bits) comes from these
constexpr std::int64_t kGregorianToUnixUs = 12219292800LL * 1000000;  // 1582-10-15 to 1970

constexpr std::uint64_t kStepsPerMs = 4096;  // rand_a: 12 bits of sub-millisecond time

// The most a new id's time (unix_ts_ms and rand_a) may lead the clock reading it was made at:
// exactly 1 s, the spread the generator mark covers (so ids that ran ahead are never made again
// after a crash) and the same second of slack DistributedId takes as its leeway and
// DistributedId128 as its reset threshold. It lets a burst run 4 million ids ahead of the format's
// 4096 per ms before anything waits (a bulk load never does: inserting rows is far slower than
// that), and it keeps an id's embedded time its creation time to within a second. Read back
// (idgen.uuid_timestamp floors to the ms), an id's time is at most 1000 ms after the clock.
constexpr std::uint64_t kMaxLeadSteps = kIdSpreadMs * kStepsPerMs;
// How far behind the bound the clock may be and still be waited for (about 1 ms at a time). The
// most a flood can put the state past the bound is one step, so any wait past a few steps means
// the clock went back; waiting out up to 1 s of that keeps ids ordered through a leap second or a
// small correction, while a larger step back resets (as DistributedId128 resets a second behind)
// instead of stalling every caller for as long as the clock jumped.
constexpr std::uint64_t kResetBehindSteps = 1000 * kStepsPerMs;

enum class Lead {
  bounded,    // the real clock: at most kMaxLeadSteps ahead of it
  unbounded,  // a session's private test generator (pinned clock or test seed): the previous
              // value plus one step however far ahead that is
};

struct V7State {
  std::uint64_t last = 0;  // (unix_ts_ms << 12) | rand_a of the previous id
};
IDGEN_STACK_SAFE(V7State);

enum class V7StepKind {
  id,            // value holds the new id's (unix_ts_ms << 12) | rand_a
  wait,          // the bound is reached: wait about 1 ms, re-read the clock and step again
  out_of_range,  // the clock, or the next value, does not fit 48 bits of Unix ms (before 1970
                 // or after the year 10889)
};

struct V7Step {
  V7StepKind kind;
  std::uint64_t value;
  bool reset;  // the clock was far behind: this id sorts below the previous one
};
IDGEN_STACK_SAFE(V7Step);

constexpr std::uint64_t kMsLimit = std::uint64_t{1} << 48;  // unix_ts_ms has 48 bits

// The (unix_ts_ms << 12) | rand_a value of an instant in Unix µs (rand_a the floor of its
// sub-millisecond fraction in 1/4096 ms), as the generator takes it from the clock: the smallest
// value an id made at or after that instant can carry. nullopt outside the format's range.
// Inline: every id of every generator step reads the clock through it.
inline std::optional<std::uint64_t> v7_value_at(std::int64_t unix_us) noexcept {
  if (unix_us < 0) return std::nullopt;
  const auto ms = static_cast<std::uint64_t>(unix_us / 1000);
  if (ms >= kMsLimit) return std::nullopt;
  const auto sub = static_cast<std::uint64_t>((unix_us % 1000) * kStepsPerMs / 1000);
  return (ms << 12) | sub;
}

// A value moved by delta_us (floor to whole 1/4096 ms steps): the same offset for every value, so
// values shifted alike keep their order. nullopt when the result leaves the format's range.
std::optional<std::uint64_t> shift_v7_value(std::uint64_t value, std::int64_t delta_us) noexcept;

// The instant of a value in Unix µs (floor).
std::int64_t v7_value_unix_us(std::uint64_t value) noexcept;

// The step that follows `last` at now_unix_us, as a pure function of the previous value (for a
// lock-free shared state: compare and swap `last` for the value). The clock's value, or the
// previous one plus one step when the clock has not passed it, within the lead bound.
V7Step next_v7_value(std::uint64_t last, std::int64_t now_unix_us, Lead lead) noexcept;
// The same on a state, which moves only when an id is returned. Only state arithmetic, so a
// shared state's lock would be held briefly.
inline V7Step advance_v7(V7State& state, std::int64_t now_unix_us, Lead lead) noexcept {
  const V7Step step = next_v7_value(state.last, now_unix_us, lead);
  if (step.kind == V7StepKind::id) state.last = step.value;
  return step;
}

// The v7 id of a value from advance_v7, with rand_b from random[0..8). With eight zero bytes it is
// the smallest v7 id of that value, the bound of a range scan.
Uuid compose_v7(std::uint64_t value, const std::uint8_t* random) noexcept;

// The version of an RFC 9562 UUID (variant 10); nullopt for other variants.
std::optional<int> version(const Uuid& id) noexcept;

// The creation time of a version 1, 6 or 7 UUID in Unix µs (floor); nullopt otherwise.
std::optional<std::int64_t> timestamp_unix_us(const Uuid& id) noexcept;

}  // namespace idgen::rfc9562
