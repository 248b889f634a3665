// The alphanumeric (base62) id encoding of Architect.Identities (docs/distributed-id.md).
//
// Alphabet 0-9A-Za-z in ASCII order, so string order (COLLATE "C") equals numeric order. The unit
// is the block: 8 bytes read big-endian, written as exactly 11 digits. A 64-bit value is one
// block; a 128-bit value is two blocks (not the base62 form of the whole number); a DistributedId
// is its two-block form without the first 6 characters, which are always 0.
//
// Decoding is strict: exact length, alphabet characters only, and every block at most
// 2^64 - 1 (the reference library wraps larger blocks around; idgen rejects them).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/decode_result.hpp"
#include "core/uint128.hpp"

namespace idgen::base62 {

constexpr std::size_t kBlockChars = 11;
constexpr std::size_t kU64Chars = 11;
constexpr std::size_t kU128Chars = 22;
constexpr std::size_t kDecimal28Chars = 16;

// Encoders write exactly the form's number of characters (no terminator).
void encode_u64(std::uint64_t v, char* out) noexcept;
void encode_u128(u128 v, char* out) noexcept;
// v must be at most 10^28 - 1.
void encode_decimal28(u128 v, char* out) noexcept;

DecodeResult decode_u64(const char* text, std::size_t len, std::uint64_t* out) noexcept;
DecodeResult decode_u128(const char* text, std::size_t len, u128* out) noexcept;
DecodeResult decode_decimal28(const char* text, std::size_t len, u128* out) noexcept;

}  // namespace idgen::base62
