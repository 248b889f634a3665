// Crockford's base32 for 128-bit values, the text of ULIDs and of TypeID suffixes: 26 characters
// of the alphabet 0123456789ABCDEFGHJKMNPQRSTVWXYZ (no I, L, O, U), the 128 bits left-padded to
// 130, so the first character carries 3 bits and is at most 7.
//
// Two readings, because the two formats differ:
//   any_case    ULID (ulid/spec): either case; I, L, O and U are refused, as the ULID libraries
//               that PostgreSQL users meet (pgx_ulid's Rust crate among them) refuse them, so
//               one ULID has exactly one text form up to case
//   lower_only  TypeID (jetify-com/typeid): lower case only, the same letters refused
// Either way a first character above 7 is out_of_range (a 131st bit), and nothing else is
// accepted: no separators, no check symbol, no padding.
#pragma once

#include <cstddef>

#include "core/decode_result.hpp"
#include "core/uuid.hpp"

namespace idgen::crockford32 {

constexpr std::size_t kChars = 26;

enum class Case { upper, lower };
enum class Reading { any_case, lower_only };

// Writes exactly kChars characters (no terminator).
void encode(const Uuid& value, Case letter_case, char* out) noexcept;

// Decodes exactly kChars characters; *out is written only when the result is ok. A character
// outside the alphabet is reported (at its byte position) before a wrong length.
DecodeResult decode(const char* text, std::size_t len, Reading reading, Uuid* out) noexcept;

}  // namespace idgen::crockford32
