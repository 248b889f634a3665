// Group-key uuids; see group_uuid.hpp and docs/group-uuid.md.
#include "core/group_uuid.hpp"

#include <array>

#include "core/byte_order.hpp"

namespace idgen::group_uuid {

namespace {

// One byte of the post's loop, precomputed: the eight shift-and-XOR steps of a reflected CRC-12
// (polynomial 0x80f, reflected 0xf01) applied to the byte's index.
constexpr std::array<std::uint16_t, 256> kCrc12Table = [] {
  std::array<std::uint16_t, 256> table{};
  for (unsigned b = 0; b < 256; ++b) {
    unsigned t = b;
    for (int bit = 0; bit < 8; ++bit) t = (t & 1) != 0 ? (t >> 1) ^ 0xf01 : t >> 1;
    table[b] = static_cast<std::uint16_t>(t);
  }
  return table;
}();

}  // namespace

int crc12_extend(int crc, const std::uint8_t* data, std::size_t len) noexcept {
  // The post's loop is the byte-at-a-time form of a reflected CRC-12 (initial value and final XOR
  // 0xfff). No catalogued CRC-12 uses these parameters, so a library CRC-12 would give other group
  // ids than systems built on the post. The register is the finished value XOR 0xfff, so the CRC
  // of no bytes (0) continues exactly as the initial value does.
  unsigned reg = (static_cast<unsigned>(crc) ^ 0xfffu) & 0xfffu;
  for (std::size_t i = 0; i < len; ++i) reg = (reg >> 8) ^ kCrc12Table[(reg ^ data[i]) & 0xff];
  return static_cast<int>((reg ^ 0xfff) & 0xfff);
}

Uuid make(std::uint64_t key, int group, int version, const std::uint8_t random[8]) noexcept {
  Uuid id;
  store_be64(id.bytes.data(), key << 16);  // the key in bytes 0-5; 6 and 7 are set next
  id.bytes[6] = static_cast<std::uint8_t>((version << 4) | (group >> 8));
  id.bytes[7] = static_cast<std::uint8_t>(group & 0xff);
  id.bytes[8] = static_cast<std::uint8_t>(0xa0 | (random[0] & 0x0f));
  for (int i = 9; i < 16; ++i) id.bytes[i] = random[i - 8];
  return id;
}

Parts parts(const Uuid& id) noexcept {
  Parts p{Shape::ok, load_be64(id.bytes.data()) >> 16, 0, uuid_version(id)};
  p.group = ((id.bytes[6] & 0x0f) << 8) | id.bytes[7];
  if (!is_generated_version(p.version)) {
    p.shape = Shape::bad_version;
  } else if (!uuid_has_rfc_variant(id)) {
    p.shape = Shape::bad_variant;
  }
  return p;
}

}  // namespace idgen::group_uuid
