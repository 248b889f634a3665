// Strict standard base64 (RFC 4648 section 4: A-Z a-z 0-9 + /, '=' padding), the form in which
// the public-id key is written (docs/public-id.md, "Setting up the key").
//
// The decoder reads key material, so it looks at every character the same way: the alphabet is
// mapped with arithmetic, not a table indexed by the character, and its errors carry positions and
// lengths only, never a character.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/stack_safe.hpp"

namespace idgen::base64 {

enum class Base64Status {
  ok,
  bad_length,     // not a multiple of 4 characters (padding included), or empty
  bad_character,  // a character outside the alphabet, or '=' anywhere but the last two places
  bad_padding,    // the bits that padding leaves over are not zero (not canonical)
  too_long,       // decodes to more than the output holds
};

struct Base64Result {
  Base64Status status;
  std::size_t position;  // bad_character / bad_padding: 0-based index of the offending character
  std::size_t decoded;   // ok / too_long: bytes the text decodes to
};
IDGEN_STACK_SAFE(Base64Result);

// Decodes text[0..len) into out[0..cap). On anything but ok, out is wiped.
Base64Result decode(const char* text, std::size_t len, std::uint8_t* out, std::size_t cap) noexcept;

}  // namespace idgen::base64
