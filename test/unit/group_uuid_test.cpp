// Unit tests of group-key uuids (src/core/group_uuid.*) and the free-width hex key text
// (src/core/hex.*): CRC-12 check values, the fixed layout, extraction and key text rules.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "core/group_uuid.hpp"
#include "core/hex.hpp"
#include "values.hpp"

namespace idgen {
namespace {

int crc12_of(const std::string& s) {
  return group_uuid::crc12(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

TEST(Crc12, SpecVectors) {
  EXPECT_EQ(crc12_of(""), 0x000);
  EXPECT_EQ(crc12_of("Person"), 0x2b6);
  EXPECT_EQ(crc12_of("person"), 0x2a0);
  EXPECT_EQ(crc12_of("com.soqqo.system.domain.Person"), 0xf47);
  EXPECT_EQ(crc12_of("123456789"), 0xddd);
  EXPECT_EQ(crc12_of("a"), 0x03d);
  EXPECT_EQ(crc12_of("A"), 0xb7c);
  EXPECT_EQ(crc12_of("Building"), 0x49d);
  EXPECT_EQ(crc12_of("\xc3\x9cn\xc3\xaf"
                     "c\xc3\xb8"
                     "d\xc3\xa9"),
            0x204);  // Ünïcødé in UTF-8
}

// Long names are hashed in pieces (so a cancel can land between them): any split of the same
// bytes must give the CRC of the whole.
TEST(Crc12, PiecesChainToTheWhole) {
  const std::string s = "com.soqqo.system.domain.Person";
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(s.data());
  for (std::size_t cut = 0; cut <= s.size(); ++cut) {
    const int head = group_uuid::crc12_extend(0, bytes, cut);
    EXPECT_EQ(group_uuid::crc12_extend(head, bytes + cut, s.size() - cut), 0xf47) << cut;
  }
  EXPECT_EQ(group_uuid::crc12_extend(0, bytes, 0), 0x000);
}

TEST(GroupUuid, FixedLayout) {
  const std::uint8_t random[8] = {0xff, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde};
  EXPECT_EQ(test::uuid_text(group_uuid::make(0x23122e, 0x2b6, 8, random)),
            "00000023-122e-82b6-af12-3456789abcde");
  EXPECT_EQ(test::uuid_text(group_uuid::make(0x23122e, 0x2b6, 6, random)),
            "00000023-122e-62b6-af12-3456789abcde");
  const std::uint8_t zero[8] = {};
  EXPECT_EQ(test::uuid_text(group_uuid::make(group_uuid::kMaxKey, 4095, 8, zero)),
            "ffffffff-ffff-8fff-a000-000000000000");
}

TEST(GroupUuid, PartsRoundTripAndShapes) {
  const std::uint8_t random[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int version : {6, 8}) {
    for (std::uint64_t key : {std::uint64_t{0}, std::uint64_t{0x23122e}, group_uuid::kMaxKey}) {
      for (int group : {0, 0x2b6, 4095}) {
        const group_uuid::Parts p =
            group_uuid::parts(group_uuid::make(key, group, version, random));
        EXPECT_EQ(p.shape, group_uuid::Shape::ok);
        EXPECT_EQ(p.key, key);
        EXPECT_EQ(p.group, group);
        EXPECT_EQ(p.version, version);
      }
    }
  }
  Uuid id = group_uuid::make(5, 7, 8, random);
  for (int variant : {0x80, 0x90, 0xa0, 0xb0}) {
    id.bytes[8] = static_cast<std::uint8_t>(variant);
    EXPECT_EQ(group_uuid::parts(id).shape, group_uuid::Shape::ok) << variant;
  }
  id.bytes[8] = 0xc0;
  EXPECT_EQ(group_uuid::parts(id).shape, group_uuid::Shape::bad_variant);
  id.bytes[8] = 0xa0;
  id.bytes[6] = 0x40;
  EXPECT_EQ(group_uuid::parts(id).shape, group_uuid::Shape::bad_version);
  EXPECT_EQ(group_uuid::parts(id).version, 4);
}

TEST(GroupKeyText, MinimalLowerCaseAndTolerantDecoding) {
  char out[16];
  EXPECT_EQ(std::string(out, hex::encode_u64_minimal(0x23122e, out)), "23122e");
  EXPECT_EQ(std::string(out, hex::encode_u64_minimal(0, out)), "0");
  EXPECT_EQ(std::string(out, hex::encode_u64_minimal(group_uuid::kMaxKey, out)), "ffffffffffff");
  EXPECT_EQ(std::string(out, hex::encode_u64_minimal(~std::uint64_t{0}, out)), "ffffffffffffffff");
  std::uint64_t v = 0;
  auto decode = [&](const std::string& s) {
    return hex::decode_u64_any_width(s.data(), s.size(), group_uuid::kMaxKey, &v);
  };
  EXPECT_EQ(decode("23122E").status, DecodeStatus::ok);
  EXPECT_EQ(v, 0x23122eu);
  EXPECT_EQ(decode("000000000000000023122e").status, DecodeStatus::ok);  // leading zeros
  EXPECT_EQ(v, 0x23122eu);
  EXPECT_EQ(decode("ffffffffffff").status, DecodeStatus::ok);
  EXPECT_EQ(decode("1000000000000").status, DecodeStatus::out_of_range);
  EXPECT_EQ(decode("fffffffffffffffffffff").status, DecodeStatus::out_of_range);
  EXPECT_EQ(decode("").status, DecodeStatus::bad_length);
  EXPECT_EQ(decode("0x12").status, DecodeStatus::bad_character);
  EXPECT_EQ(decode("12 ").status, DecodeStatus::bad_character);
  EXPECT_EQ(decode("-1").status, DecodeStatus::bad_character);
  EXPECT_EQ(decode("1000000000000g").status, DecodeStatus::bad_character);  // checked past range
}

}  // namespace
}  // namespace idgen
