// Short-prefix COMB layout, parameters and validation; see comb.hpp and docs/comb.md.
#include "core/comb.hpp"

#include <utility>

namespace idgen::comb {

bool prefix_bytes_valid(int prefix_bytes) noexcept {
  return prefix_bytes >= kMinPrefixBytes && prefix_bytes <= kMaxPrefixBytes;
}

bool block_size_valid(std::int64_t block_size) noexcept { return block_size >= 1; }

LayoutError make_time_layout(std::int64_t interval_us, int prefix_bytes, TimeLayout* out) noexcept {
  if (interval_us < 1000) return LayoutError::interval_too_short;
  if (interval_us % 1000 != 0) return LayoutError::interval_not_whole_ms;
  if (!prefix_bytes_valid(prefix_bytes)) return LayoutError::prefix_bytes_out_of_range;
  *out = TimeLayout{interval_us / 1000, prefix_bytes};
  return LayoutError::none;
}

ToleranceCheck make_tolerance(std::int64_t tolerance_us, const TimeLayout& layout) noexcept {
  if (tolerance_us < 0) return {ToleranceError::negative, 0};
  // interval_ms came from a microsecond count, so interval_ms * 1000 cannot overflow.
  const std::int64_t interval_us = layout.interval_ms * 1000;
  auto intervals = static_cast<std::uint64_t>(tolerance_us / interval_us) +
                   (tolerance_us % interval_us != 0 ? 1 : 0);
  // The largest possible cyclic distance is half the cycle; a tolerance that reaches it accepts
  // every prefix.
  if (intervals >= prefix_modulus(layout.prefix_bytes) / 2) {
    return {ToleranceError::too_large, intervals};
  }
  return {ToleranceError::none, intervals};
}

std::uint64_t prefix_for_sequence(std::int64_t nextval, std::int64_t block_size,
                                  int prefix_bytes) noexcept {
  // nextval - 1 overflows for INT64_MIN; 128-bit arithmetic keeps every sequence value exact.
  const __int128 value = static_cast<__int128>(nextval) - 1;
  __int128 block = value / block_size;
  if (value % block_size != 0 && value < 0) --block;
  const auto modulus = static_cast<__int128>(prefix_modulus(prefix_bytes));
  __int128 prefix = block % modulus;
  if (prefix < 0) prefix += modulus;
  return static_cast<std::uint64_t>(prefix);
}

std::uint64_t prefix_of(const Uuid& id, int prefix_bytes) noexcept {
  std::uint64_t prefix = 0;
  for (int i = 0; i < prefix_bytes; ++i) prefix = (prefix << 8) | id.bytes[i];
  return prefix;
}

Uuid compose(std::uint64_t prefix, int prefix_bytes, const Uuid& random_bits) noexcept {
  Uuid id = random_bits;
  for (int i = prefix_bytes - 1; i >= 0; --i) {
    id.bytes[i] = static_cast<std::uint8_t>(prefix & 0xff);
    prefix >>= 8;
  }
  uuid_set_version_and_rfc_variant(id, 4);
  return id;
}

std::uint64_t cyclic_distance(std::uint64_t a, std::uint64_t b, std::uint64_t modulus) noexcept {
  const std::uint64_t forward = (a + modulus - b) % modulus;
  const std::uint64_t backward = (b + modulus - a) % modulus;
  return forward < backward ? forward : backward;
}

Verdict validate(const Uuid& id, std::int64_t at_unix_ms, const TimeLayout& layout,
                 std::uint64_t tolerance_intervals) noexcept {
  Verdict v{};
  v.version = uuid_version(id);
  v.variant_bits = uuid_variant_bits(id);
  v.prefix = prefix_of(id, layout.prefix_bytes);
  v.expected_prefix = prefix_at(at_unix_ms, layout);
  v.distance = cyclic_distance(v.prefix, v.expected_prefix, prefix_modulus(layout.prefix_bytes));
  if (v.version != 4) {
    v.failed = Failure::version;
  } else if (!uuid_has_rfc_variant(id)) {
    v.failed = Failure::variant;
  } else if (v.distance > tolerance_intervals) {
    v.failed = Failure::prefix;
  } else {
    v.failed = Failure::none;
  }
  return v;
}

Uuid swap_suffix(const Uuid& id) noexcept {
  Uuid swapped = id;
  for (int i = 0; i < kSuffixBytes; ++i) {
    std::swap(swapped.bytes[i], swapped.bytes[kSuffixOffset + i]);
  }
  return swapped;
}

}  // namespace idgen::comb
