// Short-prefix COMB UUIDs (docs/comb.md). Layout of a COMB with a p-byte prefix:
//
//   bytes 0 .. p-1   prefix, big-endian: floor(unix_ms / interval_ms) mod 256^p   (time variant)
//                                     or floor((nextval - 1) / block_size) mod 256^p (sequence)
//   byte 6           high nibble 0x4 (version 4)
//   byte 8           top two bits 10 (RFC variant)
//   all other bits   from the process CSPRNG (core/random.hpp)
//
// Suffix form (SQL Server orders uniqueidentifier by bytes 10..15 first): bytes 0..1 swapped with
// bytes 10..11. The swap is its own inverse and never touches bytes 6 and 8.
#pragma once

#include <cstdint>

#include "core/arith.hpp"
#include "core/stack_safe.hpp"
#include "core/uuid.hpp"

namespace idgen::comb {

constexpr std::int64_t kDefaultIntervalMs = 60000;
constexpr int kDefaultPrefixBytes = 2;
constexpr int kMinPrefixBytes = 1;
constexpr int kMaxPrefixBytes = 4;
constexpr std::int64_t kDefaultBlockSize = 65536;
constexpr int kSuffixOffset = 10;  // first byte of the SQL Server suffix form
constexpr int kSuffixBytes = 2;    // bytes moved by the prefix/suffix swap

// What make_time_layout refuses.
enum class LayoutError {
  none,
  interval_too_short,         // below 1 ms (zero and negative included)
  interval_not_whole_ms,      // not a whole number of milliseconds
  prefix_bytes_out_of_range,  // outside kMinPrefixBytes .. kMaxPrefixBytes
};

// What make_tolerance refuses.
enum class ToleranceError {
  none,
  negative,
  too_large,  // covers half the prefix cycle or more: the check could never fail
};

// The time counter: its step and its width.
struct TimeLayout {
  std::int64_t interval_ms;
  int prefix_bytes;
};
IDGEN_STACK_SAFE(TimeLayout);

constexpr TimeLayout kDefaultLayout{kDefaultIntervalMs, kDefaultPrefixBytes};

// Number of distinct prefix values, 256^p (p in 1..4).
constexpr std::uint64_t prefix_modulus(int prefix_bytes) noexcept {
  return std::uint64_t{1} << (8 * prefix_bytes);
}

// Whether a prefix width is kMinPrefixBytes .. kMaxPrefixBytes.
bool prefix_bytes_valid(int prefix_bytes) noexcept;
// Whether a sequence block size is at least 1.
bool block_size_valid(std::int64_t block_size) noexcept;
// Validates an interval given in microseconds and the prefix width; fills *out when valid.
LayoutError make_time_layout(std::int64_t interval_us, int prefix_bytes, TimeLayout* out) noexcept;

struct ToleranceCheck {
  ToleranceError error;
  std::uint64_t intervals;  // ceil(tolerance / interval); set also for too_large
};
IDGEN_STACK_SAFE(ToleranceCheck);
// Converts a tolerance in microseconds into whole intervals, refusing tolerances for which the
// cyclic check could never fail (ceil(tolerance / interval) >= 256^p / 2).
ToleranceCheck make_tolerance(std::int64_t tolerance_us, const TimeLayout& layout) noexcept;

// The prefix a COMB made at unix_ms carries.
inline std::uint64_t prefix_at(std::int64_t unix_ms, const TimeLayout& layout) noexcept {
  std::int64_t counter = floor_div(unix_ms, layout.interval_ms);
  return static_cast<std::uint64_t>(
      floor_mod(counter, static_cast<std::int64_t>(prefix_modulus(layout.prefix_bytes))));
}

// The prefix for a sequence value (the value nextval returned), as uuid_sequence_nextval derives
// it.
std::uint64_t prefix_for_sequence(std::int64_t nextval, std::int64_t block_size,
                                  int prefix_bytes) noexcept;

// The big-endian value of the first prefix_bytes bytes.
std::uint64_t prefix_of(const Uuid& id, int prefix_bytes) noexcept;

// A version-4, RFC-variant UUID with the prefix in front and random_bits everywhere else.
Uuid compose(std::uint64_t prefix, int prefix_bytes, const Uuid& random_bits) noexcept;

// min((a - b) mod m, (b - a) mod m) for a, b < m.
std::uint64_t cyclic_distance(std::uint64_t a, std::uint64_t b, std::uint64_t modulus) noexcept;

enum class Failure { none, version, variant, prefix };

struct Verdict {
  Failure failed;
  int version;                    // the id's version nibble
  int variant_bits;               // the id's top two bits of byte 8
  std::uint64_t prefix;           // the id's prefix
  std::uint64_t expected_prefix;  // the prefix of the reference instant
  std::uint64_t distance;         // cyclic distance between the two, in intervals
};
IDGEN_STACK_SAFE(Verdict);

// Checks version, variant and prefix distance (in that order) against the reference instant.
Verdict validate(const Uuid& id, std::int64_t at_unix_ms, const TimeLayout& layout,
                 std::uint64_t tolerance_intervals) noexcept;

// Prefix form <-> SQL Server suffix form (the same swap both ways).
Uuid swap_suffix(const Uuid& id) noexcept;

}  // namespace idgen::comb
