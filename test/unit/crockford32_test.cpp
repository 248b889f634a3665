// Unit tests of Crockford base32 (src/core/crockford32.*), the text of ULIDs, and of TypeID
// (src/core/type_id.*): fixed values, both readings' refusals, and the TypeID specification's own
// valid and invalid vectors.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/crockford32.hpp"
#include "core/type_id.hpp"
#include "core/uint128.hpp"
#include "values.hpp"
#include "vectors.hpp"

namespace idgen {
namespace {
using test::uuid_of;

std::string encoded(const Uuid& v, crockford32::Case c) {
  char out[crockford32::kChars];
  crockford32::encode(v, c, out);
  return std::string(out, sizeof out);
}

DecodeResult decoded(const std::string& text, crockford32::Reading r, Uuid* out) {
  return crockford32::decode(text.data(), text.size(), r, out);
}

TEST(Crockford32, FixedValues) {
  EXPECT_EQ(encoded(Uuid{}, crockford32::Case::upper), "00000000000000000000000000");
  EXPECT_EQ(encoded(uuid_from_u128(kU128Max), crockford32::Case::upper),
            "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
  // 0x41 repeated: the value the Rust ulid crate's own test decodes.
  const Uuid a = uuid_of("41414141-4141-4141-4141-414141414141");
  EXPECT_EQ(encoded(a, crockford32::Case::upper), "21850M2GA1850M2GA1850M2GA1");
  EXPECT_EQ(encoded(a, crockford32::Case::lower), "21850m2ga1850m2ga1850m2ga1");
  Uuid back;
  ASSERT_EQ(decoded("21850m2GA1850M2ga1850M2GA1", crockford32::Reading::any_case, &back).status,
            DecodeStatus::ok);
  EXPECT_EQ(back.bytes, a.bytes);
}

TEST(Crockford32, RoundTripsEveryBitPosition) {
  for (int bit = 0; bit < 128; ++bit) {
    const Uuid v = uuid_from_u128(u128{1} << bit);
    Uuid back;
    ASSERT_EQ(
        decoded(encoded(v, crockford32::Case::upper), crockford32::Reading::any_case, &back).status,
        DecodeStatus::ok);
    EXPECT_EQ(back.bytes, v.bytes) << bit;
  }
}

TEST(Crockford32, Refusals) {
  Uuid out;
  const auto any = crockford32::Reading::any_case;
  EXPECT_EQ(decoded("0000000000000000000000000", any, &out).status, DecodeStatus::bad_length);
  EXPECT_EQ(decoded("000000000000000000000000000", any, &out).status, DecodeStatus::bad_length);
  for (const char* letter : {"I", "L", "O", "U", "i", "l", "o", "u", "-", " ", "\xc3"}) {
    const std::string text = std::string("0000000000") + letter + "000000000000000";
    const DecodeResult r = decoded(text, any, &out);
    EXPECT_EQ(r.status, DecodeStatus::bad_character) << letter;
    EXPECT_EQ(r.position, 10u) << letter;
  }
  EXPECT_EQ(decoded("80000000000000000000000000", any, &out).status, DecodeStatus::out_of_range);
  EXPECT_EQ(decoded("ZZZZZZZZZZZZZZZZZZZZZZZZZZ", any, &out).status, DecodeStatus::out_of_range);
  // Lower case only for TypeID.
  const DecodeResult upper =
      decoded("0000000000000000000000000A", crockford32::Reading::lower_only, &out);
  EXPECT_EQ(upper.status, DecodeStatus::bad_character);
  EXPECT_EQ(upper.position, 25u);
}

TEST(TypeId, SpecValidVectors) {
  const auto rows = test::read_vectors("typeid_valid.tsv");
  ASSERT_EQ(rows.size(), 9u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 4u);
    const std::string& text = row[1];
    const std::string& prefix = row[2];
    const Uuid id = uuid_of(row[3]);
    char out[type_id::kMaxText];
    const std::size_t n = type_id::format(prefix.data(), prefix.size(), id, out);
    EXPECT_EQ(std::string(out, n), text) << row[0];
    const type_id::Parsed p = type_id::parse(text.data(), text.size());
    ASSERT_EQ(p.checked.problem, type_id::Problem::none) << row[0];
    EXPECT_EQ(std::string(text.data(), p.prefix_len), prefix) << row[0];
    EXPECT_EQ(p.id.bytes, id.bytes) << row[0];
  }
}

TEST(TypeId, SpecInvalidVectors) {
  const auto rows = test::read_vectors("typeid_invalid.tsv");
  ASSERT_EQ(rows.size(), 19u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 2u);
    const type_id::Parsed p = type_id::parse(row[1].data(), row[1].size());
    EXPECT_NE(p.checked.problem, type_id::Problem::none) << row[0];
  }
}

TEST(TypeId, Problems) {
  const auto problem = [](const std::string& s) {
    return type_id::parse(s.data(), s.size()).checked;
  };
  EXPECT_EQ(problem("user_0123456789abcdefghjkmnpqrs").problem, type_id::Problem::none);
  EXPECT_EQ(problem("my_user_0123456789abcdefghjkmnpqrs").problem, type_id::Problem::none);
  EXPECT_EQ(problem("_0123456789abcdefghjkmnpqrs").problem, type_id::Problem::empty_prefix);
  EXPECT_EQ(problem("user_0123").problem, type_id::Problem::suffix_length);
  // Without "_": a bare suffix of another length, told apart from a "-" used as the separator.
  EXPECT_EQ(problem("garbage").problem, type_id::Problem::no_separator);
  EXPECT_EQ(problem("").problem, type_id::Problem::no_separator);
  EXPECT_EQ(problem("user-01h455vb4pex5vsknk084sn02q").problem, type_id::Problem::dash_separator);
  EXPECT_EQ(problem("01h455vb4pex5vsknk084sn02u").problem, type_id::Problem::suffix_character);
  EXPECT_EQ(problem("User_0123456789abcdefghjkmnpqrs").problem, type_id::Problem::prefix_character);
  EXPECT_EQ(problem("user__0123456789abcdefghjkmnpqrs").problem,
            type_id::Problem::prefix_underscore_edge);
  const type_id::Checked bad = problem("user_0123456789abcdefghjkmnpqri");
  EXPECT_EQ(bad.problem, type_id::Problem::suffix_character);
  EXPECT_EQ(bad.position, 30u);
  EXPECT_EQ(problem("user_8123456789abcdefghjkmnpqrs").problem, type_id::Problem::suffix_overflow);
  EXPECT_EQ(type_id::check_prefix(std::string(63, 'a').data(), 63).problem, type_id::Problem::none);
  EXPECT_EQ(type_id::check_prefix(std::string(64, 'a').data(), 64).problem,
            type_id::Problem::prefix_too_long);
}

// The stored form of the idgen.typeid type: the UUID's 16 bytes, then the prefix.
std::string stored(const std::string& prefix, std::uint8_t first_byte) {
  std::string s(type_id::kStoredMin, '\0');
  s[0] = static_cast<char>(first_byte);
  return s + prefix;
}

type_id::Checked stored_check(const std::string& s) {
  return type_id::check_stored(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

int stored_order(const std::string& a, const std::string& b) {
  return type_id::compare_stored(reinterpret_cast<const std::uint8_t*>(a.data()), a.size(),
                                 reinterpret_cast<const std::uint8_t*>(b.data()), b.size());
}

TEST(TypeId, HasPrefix) {
  const std::string text = "user_01h455vb4pex5vsknk084sn02q";
  const type_id::Parsed p = type_id::parse(text.data(), text.size());
  ASSERT_EQ(p.checked.problem, type_id::Problem::none);
  EXPECT_TRUE(type_id::has_prefix(text.data(), p, "user", 4));
  EXPECT_FALSE(type_id::has_prefix(text.data(), p, "use", 3));
  EXPECT_FALSE(type_id::has_prefix(text.data(), p, "users", 5));
  EXPECT_FALSE(type_id::has_prefix(text.data(), p, "order", 5));
  EXPECT_FALSE(type_id::has_prefix(text.data(), p, "", 0));
  const std::string bare = "01h455vb4pex5vsknk084sn02q";
  const type_id::Parsed q = type_id::parse(bare.data(), bare.size());
  EXPECT_TRUE(type_id::has_prefix(bare.data(), q, "", 0));
}

TEST(TypeId, StoredFormChecks) {
  EXPECT_EQ(stored_check(stored("", 0)).problem, type_id::Problem::none);
  EXPECT_EQ(stored_check(stored("user", 0xff)).problem, type_id::Problem::none);
  EXPECT_EQ(stored_check(stored(std::string(63, 'a'), 1)).problem, type_id::Problem::none);
  EXPECT_EQ(stored_check(stored(std::string(64, 'a'), 1)).problem,
            type_id::Problem::prefix_too_long);
  EXPECT_EQ(stored_check(std::string(15, '\0')).problem, type_id::Problem::suffix_length);
  EXPECT_EQ(stored_check("").problem, type_id::Problem::suffix_length);
  const type_id::Checked upper = stored_check(stored("usEr", 0));
  EXPECT_EQ(upper.problem, type_id::Problem::prefix_character);
  EXPECT_EQ(upper.position, 2u);
  EXPECT_EQ(stored_check(stored("_user", 0)).problem, type_id::Problem::prefix_underscore_edge);
  EXPECT_EQ(stored_check(stored(std::string("us\0r", 4), 0)).problem,
            type_id::Problem::prefix_character);
}

TEST(TypeId, StoredFormOrdersByPrefixThenUuid) {
  EXPECT_EQ(stored_order(stored("user", 7), stored("user", 7)), 0);
  EXPECT_EQ(stored_order(stored("user", 1), stored("user", 2)), -1);
  EXPECT_EQ(stored_order(stored("user", 2), stored("user", 1)), 1);
  // The prefix decides before the uuid, whatever the uuid.
  EXPECT_EQ(stored_order(stored("order", 0xff), stored("user", 0)), -1);
  EXPECT_EQ(stored_order(stored("user", 0), stored("order", 0xff)), 1);
  // A prefix that starts another sorts first; no prefix sorts before every prefix.
  EXPECT_EQ(stored_order(stored("user", 0xff), stored("user_group", 0)), -1);
  EXPECT_EQ(stored_order(stored("", 0xff), stored("a", 0)), -1);
  EXPECT_EQ(stored_order(stored("a", 0), stored("", 0xff)), 1);
}

}  // namespace
}  // namespace idgen
