// TypeID (jetify-com/typeid, spec version 0.3): a type prefix, "_", and the 26-character
// lower-case Crockford base32 of a UUID (crockford32.hpp). The prefix is 0 to 63 characters of
// a-z and "_", neither starting nor ending with "_"; an empty prefix has no separator, so the text
// is the suffix alone. A decoder splits at the last "_". Any UUID encodes; new TypeIDs carry a
// UUIDv7.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/crockford32.hpp"
#include "core/stack_safe.hpp"
#include "core/uuid.hpp"

namespace idgen::type_id {

constexpr std::size_t kMaxPrefix = 63;
constexpr std::size_t kMaxText = kMaxPrefix + 1 + crockford32::kChars;

enum class Problem {
  none,
  prefix_too_long,         // more than kMaxPrefix characters
  prefix_character,        // a character outside a-z and "_" (at position)
  prefix_underscore_edge,  // starts or ends with "_"
  empty_prefix,            // a separator with nothing before it ("_0123...")
  no_separator,            // no "_", and not a bare 26-character suffix
  dash_separator,          // no "_", but a "-" where it would be ("user-0123...")
  suffix_length,           // the suffix is not 26 characters
  suffix_character,        // a character outside the lower-case alphabet (at position)
  suffix_overflow,         // the suffix's first character is above 7
};

struct Checked {
  Problem problem;
  std::size_t position;  // of the offending character in the text (character problems)
};
IDGEN_STACK_SAFE(Checked);

// Checks a prefix on its own (the argument of a TypeID constructor).
Checked check_prefix(const char* prefix, std::size_t len) noexcept;

// Writes prefix, "_" (when the prefix is not empty) and the suffix; returns the length. The
// prefix must have passed check_prefix; out holds at least kMaxText characters.
std::size_t format(const char* prefix, std::size_t prefix_len, const Uuid& id, char* out) noexcept;

struct Parsed {
  Checked checked;
  std::size_t prefix_len;  // the prefix is text[0 .. prefix_len)
  Uuid id;
};
IDGEN_STACK_SAFE(Parsed);

Parsed parse(const char* text, std::size_t len) noexcept;

// Whether a TypeID text that parse accepted has exactly this prefix (the lookups that must not let
// an id of one type find a row of another).
bool has_prefix(const char* text, const Parsed& parsed, const char* prefix,
                std::size_t prefix_len) noexcept;

// The stored form of a TypeID, which the idgen.typeid SQL type keeps and sends in binary: the 16
// bytes of the UUID, then the prefix's characters (0 to kMaxPrefix), no separator. The UUID comes
// first so that it sits at a fixed offset; the order is nonetheless the prefix's first.
constexpr std::size_t kStoredMin = 16;
constexpr std::size_t kStoredMax = kStoredMin + kMaxPrefix;

// Checks a stored form that comes from outside (binary input): its length, then the prefix rules
// (positions count from the start of the prefix).
Checked check_stored(const std::uint8_t* bytes, std::size_t len) noexcept;

// Orders two valid stored forms: by prefix (bytewise; a prefix that starts the other sorts first),
// then by UUID (bytewise, the uuid order, so TypeIDs of one prefix sort by creation time).
int compare_stored(const std::uint8_t* a, std::size_t a_len, const std::uint8_t* b,
                   std::size_t b_len) noexcept;

}  // namespace idgen::type_id
