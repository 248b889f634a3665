// See generator_mark.hpp.
#include "core/generator_mark.hpp"

#include <cstring>

#include "core/byte_order.hpp"
#include "core/crc32c.hpp"

namespace idgen::generator_mark {
namespace {

constexpr char kMagic[4] = {'i', 'd', 'g', 'm'};

}  // namespace

void encode(std::int64_t mark_ms, std::uint8_t* out) noexcept {
  std::memcpy(out, kMagic, sizeof kMagic);
  store_be64(out + 4, static_cast<std::uint64_t>(mark_ms));
  const std::uint32_t crc = crc32c::of(out, 12);
  for (int i = 0; i < 4; ++i) out[12 + i] = static_cast<std::uint8_t>(crc >> (24 - 8 * i));
}

std::optional<std::int64_t> decode(const std::uint8_t* bytes, std::size_t n) noexcept {
  if (n != kEncodedBytes || std::memcmp(bytes, kMagic, sizeof kMagic) != 0) return std::nullopt;
  std::uint32_t crc = 0;
  for (int i = 0; i < 4; ++i) crc = (crc << 8) | bytes[12 + i];
  if (crc != crc32c::of(bytes, 12)) return std::nullopt;
  return static_cast<std::int64_t>(load_be64(bytes + 4));
}

}  // namespace idgen::generator_mark
