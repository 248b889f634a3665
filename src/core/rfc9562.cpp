// See rfc9562.hpp.
#include "core/rfc9562.hpp"

#include "core/byte_order.hpp"

namespace idgen::rfc9562 {
namespace {

std::uint64_t big_endian(const Uuid& id, int from, int count) noexcept {
  std::uint64_t v = 0;
  for (int i = from; i < from + count; ++i) v = (v << 8) | id.bytes[i];
  return v;
}

}  // namespace

std::optional<std::uint64_t> shift_v7_value(std::uint64_t value, std::int64_t delta_us) noexcept {
  // In 128 bits: a shift of more than 71 years overflows 64-bit steps.
  const __int128 product = static_cast<__int128>(delta_us) * kStepsPerMs;
  __int128 steps = product / 1000;
  if (product % 1000 < 0) --steps;  // floor, also for negative shifts
  const __int128 shifted = static_cast<__int128>(value) + steps;
  if (shifted < 0 || shifted >= static_cast<__int128>(kMsLimit) << 12) return std::nullopt;
  return static_cast<std::uint64_t>(shifted);
}

std::int64_t v7_value_unix_us(std::uint64_t value) noexcept {
  return static_cast<std::int64_t>((value >> 12) * 1000 + (value & 0xfff) * 1000 / kStepsPerMs);
}

V7Step next_v7_value(std::uint64_t last, std::int64_t now_unix_us, Lead lead) noexcept {
  constexpr V7Step kOutOfRange{V7StepKind::out_of_range, 0, false};
  const std::optional<std::uint64_t> at = v7_value_at(now_unix_us);
  if (!at) return kOutOfRange;
  const std::uint64_t clock = *at;
  if (clock > last) return {V7StepKind::id, clock, false};
  // Every value returned is below 2^60, so last + 1 does not overflow.
  const std::uint64_t next = last + 1;
  const std::uint64_t lead_steps = next - clock;
  if (lead == Lead::bounded && lead_steps > kMaxLeadSteps) {
    if (lead_steps - kMaxLeadSteps <= kResetBehindSteps) return {V7StepKind::wait, 0, false};
    return {V7StepKind::id, clock, true};
  }
  if ((next >> 12) >= kMsLimit) return kOutOfRange;
  return {V7StepKind::id, next, false};
}

Uuid compose_v7(std::uint64_t value, const std::uint8_t* random) noexcept {
  // Two big-endian words: unix_ts_ms, version 7, rand_a; then variant 10 over the random bits.
  constexpr std::uint64_t kRandA = 0xfff;
  constexpr std::uint64_t kVersion7 = 0x7000;
  constexpr std::uint64_t kVariantMask = 0x3fffffffffffffffULL;
  constexpr std::uint64_t kVariant10 = 0x8000000000000000ULL;
  static_assert(kRandomBytes == sizeof(std::uint64_t), "the second word is the random bytes");
  Uuid id;
  store_be64(id.bytes.data(), (value >> 12) << 16 | kVersion7 | (value & kRandA));
  store_be64(id.bytes.data() + 8, (load_be64(random) & kVariantMask) | kVariant10);
  return id;
}

std::optional<int> version(const Uuid& id) noexcept {
  if (!uuid_has_rfc_variant(id)) return std::nullopt;
  return uuid_version(id);
}

std::optional<std::int64_t> timestamp_unix_us(const Uuid& id) noexcept {
  const std::optional<int> v = version(id);
  if (!v) return std::nullopt;
  std::uint64_t ticks = 0;  // 100 ns since 1582-10-15 (versions 1 and 6)
  switch (*v) {
    case 1:  // time_low (32) | time_mid (16) | version | time_high (12)
      ticks =
          (big_endian(id, 6, 2) & 0x0fff) << 48 | big_endian(id, 4, 2) << 32 | big_endian(id, 0, 4);
      break;
    case 6:  // time_high (32) | time_mid (16) | version | time_low (12)
      ticks =
          big_endian(id, 0, 4) << 28 | big_endian(id, 4, 2) << 12 | (big_endian(id, 6, 2) & 0x0fff);
      break;
    case 7:
      return static_cast<std::int64_t>(big_endian(id, 0, 6)) * 1000;
    default:
      return std::nullopt;
  }
  return static_cast<std::int64_t>(ticks / 10) - kGregorianToUnixUs;
}

}  // namespace idgen::rfc9562
