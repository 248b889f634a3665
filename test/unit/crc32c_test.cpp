// Unit tests of CRC-32C (src/core/crc32c.*): the check value, RFC 3720 B.4 vectors, chaining, and
// the CPU path against the portable path on every length and alignment up to 300 bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/crc32c.hpp"

namespace idgen {
namespace {

TEST(Crc32c, CheckValueAndRfc3720Vectors) {
  EXPECT_EQ(crc32c::of("123456789", 9), 0xe3069283u);
  EXPECT_EQ(crc32c::extend_portable(0, "123456789", 9), 0xe3069283u);
  EXPECT_EQ(crc32c::of("", 0), 0u);
  std::uint8_t buf[32];
  std::memset(buf, 0, sizeof buf);
  EXPECT_EQ(crc32c::of(buf, 32), 0x8a9136aau);  // 32 bytes of zeros
  std::memset(buf, 0xff, sizeof buf);
  EXPECT_EQ(crc32c::of(buf, 32), 0x62a8ab43u);  // 32 bytes of ones
  for (int i = 0; i < 32; ++i) buf[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(crc32c::of(buf, 32), 0x46dd794eu);  // incrementing
  for (int i = 0; i < 32; ++i) buf[i] = static_cast<std::uint8_t>(31 - i);
  EXPECT_EQ(crc32c::of(buf, 32), 0x113fdb5cu);  // decrementing
}

TEST(Crc32c, ChainingEqualsOneCrcOverTheWhole) {
  const std::string text = "The quick brown fox jumps over the lazy dog, 0123456789 times.";
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    const std::uint32_t first = crc32c::of(text.data(), cut);
    EXPECT_EQ(crc32c::extend(first, text.data() + cut, text.size() - cut),
              crc32c::of(text.data(), text.size()))
        << cut;
  }
}

TEST(Crc32c, CpuPathMatchesPortablePath) {
  std::vector<std::uint8_t> data(320);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 131 + 7);
  for (std::size_t offset = 0; offset < 8; ++offset) {
    for (std::size_t n = 0; n + offset <= 300; ++n) {
      ASSERT_EQ(crc32c::extend(0x12345678, data.data() + offset, n),
                crc32c::extend_portable(0x12345678, data.data() + offset, n))
          << offset << " " << n;
    }
  }
}

}  // namespace
}  // namespace idgen
