// Unit tests of public identities (src/core/public_id.*, aes_block.*, base64.*): every row of
// test/vectors/public_id.tsv (docs/public-id.md), the worked example, the constant-time
// validators at their edges, and the key text rules (2).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include <openssl/evp.h>

#include "core/base62.hpp"
#include "core/hex.hpp"
#include "core/public_id.hpp"
#include "core/uint128.hpp"
#include "values.hpp"
#include "vectors.hpp"

namespace idgen {
namespace {

using public_id::KeyStatus;
using test::decimal;
using test::to_decimal;
using test::uuid_of;

std::string hex_of(const Uuid& u) {
  char out[hex::kU128Chars];
  hex::encode_u128(u128_from_uuid(u), out);
  return std::string(out, sizeof out);
}

std::string alphanumeric_of(const Uuid& u) {
  char out[base62::kU128Chars];
  base62::encode_u128(u128_from_uuid(u), out);
  return std::string(out, sizeof out);
}

void key_from_base64(const std::string& text, AesBlockCipher* cipher) {
  std::uint8_t key[AesBlockCipher::kMaxKeyLength];
  const public_id::KeyParse parsed = public_id::parse_key_base64(text.data(), text.size(), key);
  ASSERT_EQ(parsed.status, KeyStatus::ok) << text;
  ASSERT_TRUE(cipher->set_key(key, parsed.length));
}

// The plaintext of a vector row's value for its kind (the uint128 kind exists only here).
Uuid plaintext_of(const std::string& kind, const std::string& value) {
  if (kind == "bigint")
    return public_id::plaintext_of_u64(static_cast<std::uint64_t>(std::stoll(value)));
  if (kind == "decimal28") return public_id::plaintext_of_decimal28(decimal(value));
  if (kind == "uuid") return public_id::plaintext_of_uuid(uuid_of(value));
  EXPECT_EQ(kind, "uint128");
  return uuid_from_u128(decimal(value));
}

// The value decoded from plaintext p as kind, as the vector file writes it, or "" when invalid.
std::string decoded_as(const std::string& kind, const Uuid& p) {
  if (kind == "bigint") {
    std::int64_t v = 0;
    return public_id::bigint_of_plaintext(p, &v) ? std::to_string(v) : "";
  }
  if (kind == "decimal28") {
    u128 v = 0;
    return public_id::decimal28_of_plaintext(p, &v) ? to_decimal(v) : "";
  }
  if (kind == "uuid") return test::uuid_text(p);
  return to_decimal(u128_from_uuid(p));
}

TEST(PublicId, EveryVectorRow) {
  const auto rows = test::read_vectors("public_id.tsv");
  ASSERT_EQ(rows.size(), 17u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 7u);
    const std::string &key = row[0], &kind = row[1], &value = row[2], &uuid = row[3],
                      &alnum = row[4], &expect = row[5];
    SCOPED_TRACE(kind + " " + value + " " + uuid);
    AesBlockCipher cipher;
    key_from_base64(key, &cipher);
    const Uuid published = uuid_of(uuid);
    EXPECT_EQ(alphanumeric_of(published), alnum);
    Uuid p;
    ASSERT_TRUE(public_id::decrypt(cipher, published, &p));
    if (expect == "ok") {
      Uuid made;
      ASSERT_TRUE(public_id::encrypt(cipher, plaintext_of(kind, value), &made));
      EXPECT_EQ(hex_of(made), hex_of(published));
      EXPECT_EQ(decoded_as(kind, p), value);
    } else {
      ASSERT_EQ(expect, "null");
      EXPECT_EQ(decoded_as(kind, p), "");
    }
  }
}

TEST(PublicId, WorkedExampleStepByStep) {
  AesBlockCipher cipher;
  key_from_base64("k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=", &cipher);
  const Uuid p = public_id::plaintext_of_decimal28(decimal("1088824355131185736905670087"));
  EXPECT_EQ(hex_of(p), "0000000086A78403C73D8882ADB27D90");
  Uuid c;
  ASSERT_TRUE(cipher.encrypt(p.bytes.data(), c.bytes.data()));
  EXPECT_EQ(hex_of(c), "7424323054A9A9FF941C6F038AFE4FF1");
  Uuid u;
  ASSERT_TRUE(public_id::encrypt(cipher, p, &u));
  EXPECT_EQ(hex_of(u), "30322474A954FFA9941C6F038AFE4FF1");  // the correct hex form
  EXPECT_EQ(hex_of(public_id::guid_swap(u)), hex_of(c));
}

TEST(PublicId, BigintAndDecimalLayoutsAgreeBelow2To63) {
  for (std::uint64_t v : {0ULL, 1ULL, 0x7fffffffffffffffULL, 0xffffffffffffffffULL}) {
    EXPECT_EQ(hex_of(public_id::plaintext_of_u64(v)), hex_of(public_id::plaintext_of_decimal28(v)));
  }
}

TEST(PublicId, BigintValidationEdges) {
  std::int64_t v = 0;
  EXPECT_TRUE(
      public_id::bigint_of_plaintext(public_id::plaintext_of_u64(0x7fffffffffffffffULL), &v));
  EXPECT_EQ(v, INT64_MAX);
  EXPECT_FALSE(
      public_id::bigint_of_plaintext(public_id::plaintext_of_u64(0x8000000000000000ULL), &v));
  for (int byte = 0; byte < 8; ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      Uuid p = public_id::plaintext_of_u64(5);
      p.bytes[byte] ^= static_cast<std::uint8_t>(1 << bit);
      EXPECT_FALSE(public_id::bigint_of_plaintext(p, &v)) << byte << "." << bit;
    }
  }
  // The cross-kind example of docs/public-id.md: uuid ...0001 passes as bigint 2^56.
  EXPECT_TRUE(public_id::bigint_of_plaintext(uuid_of("00000000-0000-0000-0000-000000000001"), &v));
  EXPECT_EQ(v, 72057594037927936LL);
}

TEST(PublicId, Decimal28ValidationEdges) {
  u128 v = 0;
  EXPECT_TRUE(
      public_id::decimal28_of_plaintext(public_id::plaintext_of_decimal28(kDecimal28Max), &v));
  EXPECT_EQ(v, kDecimal28Max);
  // 10^28 in the decimal layout is one too many; so is the largest 96-bit value.
  const u128 ten28 = kDecimal28Max + 1;
  Uuid too_big;
  too_big.bytes[4] = static_cast<std::uint8_t>(u128_hi(ten28));
  too_big.bytes[5] = static_cast<std::uint8_t>(u128_hi(ten28) >> 8);
  too_big.bytes[6] = static_cast<std::uint8_t>(u128_hi(ten28) >> 16);
  too_big.bytes[7] = static_cast<std::uint8_t>(u128_hi(ten28) >> 24);
  for (int i = 0; i < 4; ++i) {
    too_big.bytes[8 + i] = static_cast<std::uint8_t>(u128_lo(ten28) >> (8 * i));
    too_big.bytes[12 + i] = static_cast<std::uint8_t>(u128_lo(ten28) >> (32 + 8 * i));
  }
  EXPECT_FALSE(public_id::decimal28_of_plaintext(too_big, &v));
  Uuid all_ones;
  for (int i = 4; i < 16; ++i) all_ones.bytes[i] = 0xff;
  EXPECT_FALSE(public_id::decimal28_of_plaintext(all_ones, &v));
  for (int byte = 0; byte < 4; ++byte) {
    Uuid q = public_id::plaintext_of_decimal28(5);
    q.bytes[byte] = 1;
    EXPECT_FALSE(public_id::decimal28_of_plaintext(q, &v)) << byte;
  }
}

TEST(PublicId, RoundTripsUnderEveryKeyLength) {
  for (std::size_t len : {16u, 24u, 32u}) {
    std::uint8_t key[32];
    for (std::size_t i = 0; i < len; ++i) key[i] = static_cast<std::uint8_t>(i * 7 + len);
    AesBlockCipher cipher;
    ASSERT_TRUE(cipher.set_key(key, len));
    EXPECT_TRUE(cipher.holds_key(key, len));
    EXPECT_FALSE(cipher.holds_key(key, len == 16 ? 24 : 16));
    for (std::uint64_t v : {0ULL, 42ULL, 0x7fffffffffffffffULL}) {
      Uuid u, p;
      ASSERT_TRUE(public_id::encrypt(cipher, public_id::plaintext_of_u64(v), &u));
      ASSERT_TRUE(public_id::decrypt(cipher, u, &p));
      std::int64_t back = -1;
      ASSERT_TRUE(public_id::bigint_of_plaintext(p, &back));
      EXPECT_EQ(static_cast<std::uint64_t>(back), v);
    }
  }
}

TEST(AesBlockCipher, RefusesOtherLengthsAndEmptyUse) {
  std::uint8_t key[33] = {};
  AesBlockCipher cipher;
  for (std::size_t len : {0u, 15u, 17u, 20u, 31u, 33u}) EXPECT_FALSE(cipher.set_key(key, len));
  EXPECT_FALSE(cipher.has_key());
  std::uint8_t block[16] = {};
  EXPECT_FALSE(cipher.encrypt(block, block));
  EXPECT_FALSE(cipher.decrypt(block, block));
  ASSERT_TRUE(cipher.set_key(key, 32));
  cipher.clear();
  EXPECT_FALSE(cipher.has_key());
  EXPECT_FALSE(cipher.encrypt(block, block));
}

TEST(AesBlockCipher, DerivedKeyIsTheMasterKeysBlockOfTheLabel) {
  // FIPS 197 C.1: AES-128 with key 00 01 .. 0f turns 00 11 .. ff into 69 c4 .. 5a.
  std::uint8_t master[16];
  std::uint8_t label[16];
  for (int i = 0; i < 16; ++i) {
    master[i] = static_cast<std::uint8_t>(i);
    label[i] = static_cast<std::uint8_t>(0x11 * i);
  }
  const std::uint8_t subkey[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                   0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
  AesBlockCipher derived;
  ASSERT_TRUE(set_derived_key(derived, master, sizeof master, label));
  EXPECT_TRUE(derived.holds_key(subkey, sizeof subkey));
  // Another label, another key; a master of another length fails and leaves the cipher empty.
  label[0] ^= 1;
  AesBlockCipher other;
  ASSERT_TRUE(set_derived_key(other, master, sizeof master, label));
  EXPECT_FALSE(other.holds_key(subkey, sizeof subkey));
  EXPECT_FALSE(set_derived_key(other, master, 15, label));
  EXPECT_FALSE(other.has_key());
}

TEST(AesBlockCipher, KeyedU64IsTheFirstHalfOfTheValuesBlock) {
  std::uint8_t key[16] = {};
  AesBlockCipher cipher;
  ASSERT_TRUE(cipher.set_key(key, sizeof key));
  const std::uint64_t value = 0x0000400100000007;  // a table oid << 32 | a ledger id
  std::uint8_t block[16] = {0x00, 0x00, 0x40, 0x01, 0x00, 0x00, 0x00, 0x07};
  std::uint8_t expected[16];
  ASSERT_TRUE(cipher.encrypt(block, expected));
  std::uint64_t out = 0;
  ASSERT_TRUE(keyed_u64(cipher, value, &out));
  std::uint64_t first_half = 0;
  for (int i = 0; i < 8; ++i) first_half = (first_half << 8) | expected[i];
  EXPECT_EQ(out, first_half);
  std::uint64_t neighbour = 0;
  ASSERT_TRUE(keyed_u64(cipher, value + 1, &neighbour));
  EXPECT_NE(neighbour, out);
  AesBlockCipher empty;
  EXPECT_FALSE(keyed_u64(empty, value, &out));
}

TEST(PublicIdKey, TextRules) {
  std::uint8_t key[32];
  auto parse = [&](const std::string& s) {
    return public_id::parse_key_base64(s.data(), s.size(), key);
  };
  EXPECT_EQ(parse("AAAAAAAAAAAAAAAAAAAAAA==").status, KeyStatus::ok);          // 16 bytes
  EXPECT_EQ(parse("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").status, KeyStatus::ok);  // 24 bytes
  const auto with_newline = parse("  k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=\n");
  EXPECT_EQ(with_newline.status, KeyStatus::ok);
  EXPECT_EQ(with_newline.length, 32u);
  EXPECT_EQ(key[0], 0x93);
  EXPECT_EQ(parse(" \n\t").status, KeyStatus::empty);
  EXPECT_EQ(parse("").status, KeyStatus::empty);
  const auto twenty = parse("AAAAAAAAAAAAAAAAAAAAAAAAAAA=");  // 20 bytes
  EXPECT_EQ(twenty.status, KeyStatus::wrong_length);
  EXPECT_EQ(twenty.length, 20u);
  const auto thirty_three = parse(std::string(44, 'A'));  // 33 bytes
  EXPECT_EQ(thirty_three.status, KeyStatus::wrong_length);
  EXPECT_EQ(thirty_three.length, 33u);
  const auto bad_char = parse("  AAAA*AAAAAAAAAAAAAAAAA==");
  EXPECT_EQ(bad_char.status, KeyStatus::not_base64);
  EXPECT_EQ(bad_char.base64.status, base64::Base64Status::bad_character);
  EXPECT_EQ(bad_char.base64.position, 6u);  // counted from the start of the text
  EXPECT_EQ(parse("AAAAAAAAAAAAAAAAAAAAAA=").base64.status, base64::Base64Status::bad_length);
  EXPECT_EQ(parse("AAAAAAAAAAAAAAAAAAAAAB==").base64.status, base64::Base64Status::bad_padding);
  EXPECT_EQ(parse("AAAAAAAAAA AAAAAAAAAAAA==").status, KeyStatus::not_base64);  // inner space
  for (std::uint8_t b : key) EXPECT_EQ(b, 0);  // wiped after a rejected key
}

// A key file of several keys, one per line (docs/public-id.md, "Rotating the key"): a file of one
// key reads as before; each line is one key, the first the current one; blank lines and the white
// space around each key are ignored; a fault names its key, and leaves every key wiped.
TEST(PublicIdKey, RingRules) {
  std::uint8_t keys[public_id::kMaxRingKeys][AesBlockCipher::kMaxKeyLength];
  std::size_t lengths[public_id::kMaxRingKeys];
  auto parse = [&](const std::string& s) {
    return public_id::parse_key_ring(s.data(), s.size(), keys, lengths);
  };
  const std::string a = "k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=";  // 0x93 0xb7 ...
  const std::string b = "AAAAAAAAAAAAAAAAAAAAAA==";                      // 16 zero bytes
  const auto one = parse("  " + a + "\n");
  EXPECT_EQ(one.key.status, KeyStatus::ok);
  EXPECT_EQ(one.count, 1u);
  EXPECT_TRUE(one.one_line);
  EXPECT_EQ(lengths[0], 32u);
  EXPECT_EQ(keys[0][0], 0x93);
  const auto two = parse("\n" + b + "\r\n\n\t" + a + " \n\n");
  EXPECT_EQ(two.key.status, KeyStatus::ok);
  EXPECT_EQ(two.count, 2u);
  EXPECT_FALSE(two.one_line);
  EXPECT_EQ(lengths[0], 16u);
  EXPECT_EQ(keys[0][0], 0);
  EXPECT_EQ(lengths[1], 32u);
  EXPECT_EQ(keys[1][0], 0x93);
  EXPECT_EQ(parse("").key.status, KeyStatus::empty);
  EXPECT_EQ(parse(" \n\n\t\n").key.status, KeyStatus::empty);
  const auto bad_one = parse("AAAA*AAAAAAAAAAAAAAAAA==\n");
  EXPECT_EQ(bad_one.key.status, KeyStatus::not_base64);
  EXPECT_EQ(bad_one.key.base64.position, 4u);
  EXPECT_TRUE(bad_one.one_line);
  EXPECT_EQ(bad_one.bad_key, 1u);
  const auto bad_second = parse(a + "\n  AAAA*AAAAAAAAAAAAAAAAA==\n");
  EXPECT_EQ(bad_second.key.status, KeyStatus::not_base64);
  EXPECT_EQ(bad_second.key.base64.position, 45u + 2u + 4u);  // counted from the file's start
  EXPECT_EQ(bad_second.bad_key, 2u);
  EXPECT_FALSE(bad_second.one_line);
  const auto short_second = parse(a + "\nAAAA\n");
  EXPECT_EQ(short_second.key.status, KeyStatus::wrong_length);
  EXPECT_EQ(short_second.key.length, 3u);
  EXPECT_EQ(short_second.bad_key, 2u);
  const auto twice = parse(a + "\n" + b + "\n" + a);
  EXPECT_EQ(twice.key.status, KeyStatus::duplicate);
  EXPECT_EQ(twice.bad_key, 3u);
  EXPECT_EQ(twice.same_as, 1u);
  std::string eight;
  for (int i = 0; i < 8; ++i) eight += "AAAAAAAAAAAAAAAAAAAA" + std::to_string(i) + "A==\n";
  EXPECT_EQ(parse(eight).key.status, KeyStatus::ok);
  EXPECT_EQ(parse(eight).count, 8u);
  const auto nine = parse(eight + a);
  EXPECT_EQ(nine.key.status, KeyStatus::too_many);
  EXPECT_EQ(nine.count, 9u);
  for (const auto& key : keys) {
    for (std::uint8_t byte : key) EXPECT_EQ(byte, 0);  // wiped after a rejected ring
  }
}

// The ring's decoders take the first key whose plaintext has a kind's fixed bytes: a public id of
// the current key decodes under it, an older one under its own key, a forgery under none.
TEST(PublicIdKey, FirstValidOfTheRing) {
  const Uuid bigint = public_id::plaintext_of_u64(42);
  Uuid noise;
  for (int i = 0; i < 16; ++i) noise.bytes[i] = static_cast<std::uint8_t>(0xa5 ^ i);
  const Uuid decimal28 = public_id::plaintext_of_decimal28(u128_from_halves(7, 9));
  Uuid chosen;
  const Uuid first_fits[] = {bigint, noise};
  EXPECT_EQ(public_id::first_valid(first_fits, 2, public_id::is_bigint_plaintext, &chosen), 1u);
  EXPECT_EQ(hex_of(chosen), hex_of(bigint));
  const Uuid second_fits[] = {noise, bigint, public_id::plaintext_of_u64(43)};
  EXPECT_EQ(public_id::first_valid(second_fits, 3, public_id::is_bigint_plaintext, &chosen), 2u);
  EXPECT_EQ(hex_of(chosen), hex_of(bigint));
  const Uuid none_fits[] = {noise, decimal28};
  EXPECT_EQ(public_id::first_valid(none_fits, 2, public_id::is_bigint_plaintext, &chosen), 0u);
  EXPECT_EQ(public_id::first_valid(none_fits, 2, public_id::is_decimal28_plaintext, &chosen), 2u);
  EXPECT_EQ(hex_of(chosen), hex_of(decimal28));
  EXPECT_EQ(public_id::first_valid(none_fits, 0, public_id::is_decimal28_plaintext, &chosen), 0u);
}

TEST(Base64, MatchesOpenSslOnRfcVectorsAndRandomInput) {
  const char* const kRfc[][2] = {{"f", "Zg=="},         {"fo", "Zm8="},
                                 {"foo", "Zm9v"},       {"foob", "Zm9vYg=="},
                                 {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
  std::uint8_t out[64];
  for (const auto& v : kRfc) {
    const auto r = base64::decode(v[1], std::strlen(v[1]), out, sizeof out);
    ASSERT_EQ(r.status, base64::Base64Status::ok) << v[1];
    EXPECT_EQ(std::string(reinterpret_cast<char*>(out), r.decoded), v[0]);
  }
  // Every byte string of lengths 1..48 with varied content encodes (OpenSSL) and decodes (ours)
  // back to itself; the full alphabet appears along the way.
  for (std::size_t n = 1; n <= 48; ++n) {
    std::uint8_t in[48];
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint8_t>(i * 37 + n * 11);
    char text[72];
    const int len =
        EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text), in, static_cast<int>(n));
    const auto r = base64::decode(text, static_cast<std::size_t>(len), out, sizeof out);
    ASSERT_EQ(r.status, base64::Base64Status::ok) << n;
    ASSERT_EQ(r.decoded, n);
    EXPECT_EQ(std::memcmp(in, out, n), 0) << n;
  }
  EXPECT_EQ(base64::decode("Zm9vYmFy", 8, out, 5).status, base64::Base64Status::too_long);
  EXPECT_EQ(base64::decode("Zm=v", 4, out, sizeof out).status, base64::Base64Status::bad_character);
  EXPECT_EQ(base64::decode("Z===", 4, out, sizeof out).status, base64::Base64Status::bad_character);
  EXPECT_EQ(base64::decode("Zh==", 4, out, sizeof out).status, base64::Base64Status::bad_padding);
  EXPECT_EQ(base64::decode("-_AA", 4, out, sizeof out).status, base64::Base64Status::bad_character);
}

// Key check values against AES's known answers for an all-zero block (the zero keys' AES-128 and
// AES-256 outputs start 66e94bd4 and dc95c078), and nothing without a key.
TEST(PublicId, KeyCheckValue) {
  const std::uint8_t zero_key[32] = {};
  AesBlockCipher cipher;
  char kcv[public_id::kKeyCheckChars];
  EXPECT_FALSE(public_id::key_check_value(cipher, kcv));
  ASSERT_TRUE(cipher.set_key(zero_key, 16));
  ASSERT_TRUE(public_id::key_check_value(cipher, kcv));
  EXPECT_EQ(std::string(kcv, sizeof kcv), "66e94b");
  ASSERT_TRUE(cipher.set_key(zero_key, 32));
  ASSERT_TRUE(public_id::key_check_value(cipher, kcv));
  EXPECT_EQ(std::string(kcv, sizeof kcv), "dc95c0");
}

}  // namespace
}  // namespace idgen
