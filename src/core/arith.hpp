// Integer helpers with floor semantics. C++ division truncates towards zero; instants before
// 1970 and negative sequence values need floor division so that prefixes stay contiguous.
#pragma once

#include <cstdint>

namespace idgen {

// floor(a / b) for b > 0.
constexpr std::int64_t floor_div(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

// a mod b in [0, b) for b > 0.
constexpr std::int64_t floor_mod(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t r = a % b;
  return r < 0 ? r + b : r;
}

}  // namespace idgen
