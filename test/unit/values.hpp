// Text forms of test values, shared by the unit tests: decimal and uuid text to and from the core
// types (reading them with the core's own decoders, so a row that does not parse fails the test).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/hex.hpp"
#include "core/uint128.hpp"
#include "core/uuid.hpp"

namespace idgen::test {

inline u128 decimal(const std::string& s) {
  u128 v = 0;
  EXPECT_TRUE(u128_from_decimal(s.data(), s.size(), &v)) << s;
  return v;
}

inline std::string to_decimal(u128 v) {
  char buf[40];
  return std::string(buf, u128_to_decimal(v, buf));
}

// The 128-bit value of uuid text (dashes ignored).
inline u128 uuid_text_value(const std::string& s) {
  std::string hex;
  for (char c : s)
    if (c != '-') hex += c;
  u128 v = 0;
  EXPECT_EQ(hex::decode_u128(hex.data(), hex.size(), &v).status, DecodeStatus::ok) << s;
  return v;
}

inline Uuid uuid_of(const std::string& s) { return uuid_from_u128(uuid_text_value(s)); }

// The standard lower-case 8-4-4-4-12 text of a uuid.
inline std::string uuid_text(const Uuid& u) {
  static const char* kHex = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += kHex[u.bytes[i] >> 4];
    s += kHex[u.bytes[i] & 0xf];
  }
  return s;
}

}  // namespace idgen::test
