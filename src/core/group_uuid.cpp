// Group-key uuids; see group_uuid.hpp and spec group-uuid.md.
#include "core/group_uuid.hpp"

#include "core/byte_order.hpp"

namespace idgen::group_uuid {

int crc12(const std::uint8_t* data, std::size_t len) noexcept {
  // The seed's loop is the byte-at-a-time form of a reflected CRC-12 (polynomial 0x80f, reflected
  // 0xf01; initial value and final XOR 0xfff). No catalogued CRC-12 uses these parameters, so a
  // library CRC-12 would give other group ids than systems built on the seed.
  unsigned crc = 0xfff;
  for (std::size_t i = 0; i < len; ++i) {
    unsigned t = (crc ^ data[i]) & 0xff;
    for (int bit = 0; bit < 8; ++bit) t = (t & 1) != 0 ? (t >> 1) ^ 0xf01 : t >> 1;
    crc = (crc >> 8) ^ t;
  }
  return static_cast<int>((crc ^ 0xfff) & 0xfff);
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
