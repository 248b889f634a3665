// The outcome of decoding an id from text, shared by the text encodings (base62, hex).
#pragma once

#include <cstddef>

#include "core/stack_safe.hpp"

namespace idgen {

enum class DecodeStatus {
  ok,
  bad_length,     // not the exact length of the form
  bad_character,  // a byte outside the form's alphabet (position in DecodeResult)
  out_of_range,   // well-formed, but the value is above what the form or target allows
};

struct DecodeResult {
  DecodeStatus status;
  std::size_t position;  // for bad_character: 0-based index of the first offending byte
};
IDGEN_STACK_SAFE(DecodeResult);

}  // namespace idgen
