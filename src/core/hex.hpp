// The hexadecimal id encoding of Architect.Identities (docs/distributed-id.md): upper-case
// output, either case accepted, fixed widths and nothing else (no prefix, sign, separators).
//   64-bit value   16 characters
//   DistributedId  26 characters: the last 13 bytes of its 16-byte big-endian form (a 00 byte,
//                  then the 12-byte value); decoding requires the leading 00 and v <= 10^28 - 1
//   128-bit value  32 characters
// and, for short keys people read out (group-key uuids), a free-width form: lower-case output
// without leading zeros, 1 or more digits of either case accepted, leading zeros allowed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/decode_result.hpp"
#include "core/uint128.hpp"

namespace idgen::hex {

constexpr std::size_t kU64Chars = 16;
constexpr std::size_t kDecimal28Chars = 26;
constexpr std::size_t kU128Chars = 32;

void encode_u64(std::uint64_t v, char* out) noexcept;
void encode_u128(u128 v, char* out) noexcept;
void encode_decimal28(u128 v, char* out) noexcept;  // v <= 10^28 - 1

DecodeResult decode_u64(const char* text, std::size_t len, std::uint64_t* out) noexcept;
DecodeResult decode_u128(const char* text, std::size_t len, u128* out) noexcept;
DecodeResult decode_decimal28(const char* text, std::size_t len, u128* out) noexcept;

// Lower-case, exactly `chars` digits (at most 16) of the low bits of v: the hexN(x) pieces of
// ledger event ids (docs/event-id.md), which hash and print lower-case.
void encode_lower(std::uint64_t v, std::size_t chars, char* out) noexcept;

// Free width: writes lower-case digits without leading zeros ("0" for zero) and returns how many
// (at most kU64Chars); decoding accepts any positive number of digits for a value <= max.
std::size_t encode_u64_minimal(std::uint64_t v, char* out) noexcept;
DecodeResult decode_u64_any_width(const char* text, std::size_t len, std::uint64_t max,
                                  std::uint64_t* out) noexcept;

}  // namespace idgen::hex
