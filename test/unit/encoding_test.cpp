// Unit tests of the id encodings (src/core/base62.*, hex.*, uint128.*) against every row of the
// vector files in test/vectors (docs/distributed-id.md).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "core/base62.hpp"
#include "core/hex.hpp"
#include "core/uint128.hpp"
#include "values.hpp"
#include "vectors.hpp"

namespace idgen {
namespace {

using test::decimal;
using test::read_vectors;
using test::Row;
using test::to_decimal;
using test::uuid_text_value;

// The 128-bit or 64-bit value a vector row stands for, by kind.
u128 row_value(const Row& row) {
  const std::string& kind = row[0];
  if (kind == "uuid") return uuid_text_value(row[1]);
  if (kind == "bytes") {
    u128 v = 0;
    EXPECT_EQ(row[1].size() % 2, 0u);
    for (std::size_t i = 0; i < row[1].size(); i += 2) {
      v = (v << 8) | static_cast<unsigned>(std::stoul(row[1].substr(i, 2), nullptr, 16));
    }
    return v;
  }
  return decimal(row[1]);
}

TEST(Uint128, DecimalRoundTripsAndLimits) {
  EXPECT_EQ(to_decimal(0), "0");
  EXPECT_EQ(to_decimal(kU128Max), "340282366920938463463374607431768211455");
  EXPECT_EQ(to_decimal(kDecimal28Max), "9999999999999999999999999999");
  u128 v = 0;
  EXPECT_FALSE(u128_from_decimal("340282366920938463463374607431768211456", 39, &v));
  EXPECT_FALSE(u128_from_decimal("", 0, &v));
  EXPECT_FALSE(u128_from_decimal("-1", 2, &v));
  EXPECT_FALSE(u128_from_decimal("1 ", 2, &v));
  EXPECT_EQ(decimal("1088824355131185736905670087") >> 48, 3868281180285u);
  EXPECT_EQ(static_cast<std::uint64_t>(decimal("1088824355131185736905670087") & 0xffffffffffffULL),
            0xB2AD82883DC7ULL);
}

TEST(Uint128, Base10000MatchesPostgresNumericDigits) {
  std::int16_t digits[kMaxBase10000Digits];
  int weight = -1;
  EXPECT_EQ(to_base10000(0, digits, &weight), 0);
  EXPECT_EQ(weight, 0);
  ASSERT_EQ(to_base10000(decimal("1088824355131185736905670087"), digits, &weight), 7);
  ASSERT_EQ(weight, 6);  // 1088 8243 5513 1185 7369 0567 0087
  const std::int16_t expected[] = {1088, 8243, 5513, 1185, 7369, 567, 87};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(digits[i], expected[i]);
  // 1 0000 0000: trailing zero digits dropped
  EXPECT_EQ(to_base10000(decimal("100000000"), digits, &weight), 1);
  EXPECT_EQ(weight, 2);

  // Every chunk boundary (10^16, 10^32), both ends and the largest DistributedId, through the
  // PostgreSQL-side inverse.
  for (const char* s :
       {"0", "1", "9999", "10000", "100000000", "9999999999999999", "10000000000000000",
        "18446744073709551615", "18446744073709551616", "1088824355131185736905670087",
        "9999999999999999999999999999", "99999999999999999999999999999999",
        "100000000000000000000000000000000", "184467440737095516160000000000000000",
        "340282366920938463463374607431768211455"}) {
    const int n = to_base10000(decimal(s), digits, &weight);
    ASSERT_TRUE(n == 0 || digits[n - 1] != 0) << s;  // no trailing zero digit
    ASSERT_TRUE(n == 0 || digits[0] != 0) << s;      // no leading zero digit
    u128 back = 0;
    ASSERT_EQ(from_base10000(digits, n, weight, kU128Max, &back), Base10000Status::ok);
    EXPECT_EQ(to_decimal(back), s);
  }
}

TEST(Uint128, Base10000RefusesFractionsAndOverflow) {
  u128 v = 0;
  const std::int16_t five_point_zero[] = {5, 0};  // 5.0000, weight 0
  EXPECT_EQ(from_base10000(five_point_zero, 2, 0, kU128Max, &v), Base10000Status::ok);
  EXPECT_EQ(v, 5u);
  const std::int16_t five_and_a_half[] = {5, 5000};
  EXPECT_EQ(from_base10000(five_and_a_half, 2, 0, kU128Max, &v), Base10000Status::not_integer);
  const std::int16_t half[] = {5000};
  EXPECT_EQ(from_base10000(half, 1, -1, kU128Max, &v), Base10000Status::not_integer);
  const std::int16_t one[] = {1};
  EXPECT_EQ(from_base10000(one, 1, 9, kU128Max, &v), Base10000Status::ok);  // 10^36
  EXPECT_EQ(from_base10000(one, 1, 10, kU128Max, &v), Base10000Status::too_large);
  EXPECT_EQ(from_base10000(one, 1, 32767, kU128Max, &v), Base10000Status::too_large);
  EXPECT_EQ(from_base10000(one, 1, 7, kDecimal28Max, &v), Base10000Status::too_large);  // 10^28
}

// One text encoding's encoders and decoders with their widths.
struct Codec {
  void (*encode_u64)(std::uint64_t, char*) noexcept;
  DecodeResult (*decode_u64)(const char*, std::size_t, std::uint64_t*) noexcept;
  std::size_t u64_chars;
  void (*encode_decimal28)(u128, char*) noexcept;
  DecodeResult (*decode_decimal28)(const char*, std::size_t, u128*) noexcept;
  std::size_t decimal28_chars;
  void (*encode_u128)(u128, char*) noexcept;
  DecodeResult (*decode_u128)(const char*, std::size_t, u128*) noexcept;
  std::size_t u128_chars;
};

const Codec kBase62 = {base62::encode_u64,       base62::decode_u64,       base62::kU64Chars,
                       base62::encode_decimal28, base62::decode_decimal28, base62::kDecimal28Chars,
                       base62::encode_u128,      base62::decode_u128,      base62::kU128Chars};
const Codec kHex = {hex::encode_u64,       hex::decode_u64,       hex::kU64Chars,
                    hex::encode_decimal28, hex::decode_decimal28, hex::kDecimal28Chars,
                    hex::encode_u128,      hex::decode_u128,      hex::kU128Chars};

// Every row: `both` rows encode to the expected text, and every row decodes to its value.
// 8-byte `bytes` rows are 64-bit values, 16-byte ones 128-bit values.
void check_every_row(const char* file, const Codec& c) {
  const auto rows = read_vectors(file);
  ASSERT_GE(rows.size(), 30u) << file;
  for (const Row& row : rows) {
    const std::string& kind = row[0];
    const std::string& encoded = row[2];
    const bool both = row[3] == "both";
    const u128 value = row_value(row);
    char out[40] = {};
    u128 back = 0;
    std::size_t width = 0;
    DecodeStatus status = DecodeStatus::ok;
    if (kind == "u64" || (kind == "bytes" && row[1].size() == 16)) {
      c.encode_u64(static_cast<std::uint64_t>(value), out);
      width = c.u64_chars;
      std::uint64_t b64 = 0;
      status = c.decode_u64(encoded.data(), encoded.size(), &b64).status;
      back = b64;
    } else if (kind == "decimal28") {
      c.encode_decimal28(value, out);
      width = c.decimal28_chars;
      status = c.decode_decimal28(encoded.data(), encoded.size(), &back).status;
    } else {
      c.encode_u128(value, out);
      width = c.u128_chars;
      status = c.decode_u128(encoded.data(), encoded.size(), &back).status;
    }
    if (both) {
      EXPECT_EQ(std::string(out, width), encoded) << file << ": " << row[1];
    }
    ASSERT_EQ(status, DecodeStatus::ok) << file << ": " << encoded;
    EXPECT_EQ(to_decimal(back), to_decimal(value)) << file << ": " << encoded;
  }
}

TEST(Vectors, AlphanumericEveryRow) { check_every_row("alphanumeric.tsv", kBase62); }

TEST(Vectors, HexadecimalEveryRow) { check_every_row("hex.tsv", kHex); }

TEST(Vectors, SplitJoinEveryRow) {
  const auto rows = read_vectors("split_join.tsv");
  ASSERT_GE(rows.size(), 15u);
  for (const Row& row : rows) {
    const std::string& expect = row[4];
    if (expect == "join_error") {
      u128 v = 0;
      EXPECT_FALSE(join_u128(std::stoll(row[2]), std::stoll(row[3]), &v)) << row[2] << row[3];
      continue;
    }
    const u128 value = decimal(row[0]);
    EXPECT_EQ(to_decimal(uuid_text_value(row[1])), row[0]);
    std::int64_t upper = 0;
    std::int64_t lower = 0;
    if (expect == "split_error") {
      EXPECT_FALSE(split_u128(value, &upper, &lower)) << row[0];
      continue;
    }
    ASSERT_TRUE(split_u128(value, &upper, &lower)) << row[0];
    EXPECT_EQ(std::to_string(upper), row[2]);
    EXPECT_EQ(std::to_string(lower), row[3]);
    u128 joined = 0;
    ASSERT_TRUE(join_u128(upper, lower, &joined));
    EXPECT_EQ(to_decimal(joined), row[0]);
  }
}

TEST(Vectors, InvalidStringsAreRejected) {
  const auto rows = read_vectors("invalid_strings.tsv");
  ASSERT_GE(rows.size(), 55u);
  for (const Row& row : rows) {
    const std::string& kind = row[0];
    const std::string& in = row[1];
    std::uint64_t v64 = 0;
    u128 v128 = 0;
    bool rejected = false;
    if (kind == "alnum-u64") {
      rejected = base62::decode_u64(in.data(), in.size(), &v64).status != DecodeStatus::ok;
    } else if (kind == "alnum-bigint") {
      rejected = base62::decode_u64(in.data(), in.size(), &v64).status != DecodeStatus::ok ||
                 v64 > static_cast<std::uint64_t>(INT64_MAX);
    } else if (kind == "alnum-decimal28") {
      rejected = base62::decode_decimal28(in.data(), in.size(), &v128).status != DecodeStatus::ok;
    } else if (kind == "alnum-128") {
      rejected = base62::decode_u128(in.data(), in.size(), &v128).status != DecodeStatus::ok;
    } else if (kind == "hex-u64") {
      rejected = hex::decode_u64(in.data(), in.size(), &v64).status != DecodeStatus::ok;
    } else if (kind == "hex-bigint") {
      rejected = hex::decode_u64(in.data(), in.size(), &v64).status != DecodeStatus::ok ||
                 v64 > static_cast<std::uint64_t>(INT64_MAX);
    } else if (kind == "hex-decimal28") {
      rejected = hex::decode_decimal28(in.data(), in.size(), &v128).status != DecodeStatus::ok;
    } else if (kind == "hex-128") {
      rejected = hex::decode_u128(in.data(), in.size(), &v128).status != DecodeStatus::ok;
    } else if (kind == "numeric-decimal28") {
      rejected = !u128_from_decimal(in.data(), in.size(), &v128) || v128 > kDecimal28Max;
    } else {
      ADD_FAILURE() << "unknown kind " << kind;
    }
    EXPECT_TRUE(rejected) << kind << " " << in;
  }
}

TEST(Base62, StrictBlocksAndPositions) {
  std::uint64_t v = 0;
  EXPECT_EQ(base62::decode_u64("LygHa16AHYG", 11, &v).status, DecodeStatus::out_of_range);
  EXPECT_EQ(base62::decode_u64("zzzzzzzzzzz", 11, &v).status, DecodeStatus::out_of_range);
  const DecodeResult r = base62::decode_u64(
      "12345\xc3\xa9"
      "7890",
      12, &v);
  EXPECT_EQ(r.status, DecodeStatus::bad_character);
  EXPECT_EQ(r.position, 5u);
  EXPECT_EQ(base62::decode_u64("", 0, &v).status, DecodeStatus::bad_length);
  u128 w = 0;
  // The 16-character form: the hidden first 6 characters are 0, then the 10^28 - 1 check.
  EXPECT_EQ(base62::decode_decimal28("agbFu5KnEQGxp4QC", 16, &w).status,
            DecodeStatus::out_of_range);
  EXPECT_EQ(base62::decode_decimal28("zzzzzzzzzzzzzzzz", 16, &w).status,
            DecodeStatus::out_of_range);
}

TEST(Hex, RefusesNonZeroFirstByteAndBadLengths) {
  u128 v = 0;
  EXPECT_EQ(hex::decode_decimal28("00204FCE5E3E2502611000000", 25, &v).status,
            DecodeStatus::bad_length);
  EXPECT_EQ(hex::decode_decimal28("00204FCE5E3E25026110000000", 26, &v).status,
            DecodeStatus::out_of_range);  // 10^28
  EXPECT_EQ(hex::decode_u128("0x000000000000000000000000000000", 32, &v).status,
            DecodeStatus::bad_character);
  std::uint64_t w = 0;
  EXPECT_EQ(hex::decode_u64("00000000000000000", 17, &w).status, DecodeStatus::bad_length);
}

}  // namespace
}  // namespace idgen
