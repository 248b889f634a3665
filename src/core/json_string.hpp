// JSON string literals exactly as PostgreSQL's json and jsonb output writes them (escape_json),
// which is what ledger event ids hash (docs/event-id.md): `"` and `\` are escaped, the five
// control characters with short escapes use them, every other character below U+0020 becomes
// \u00xx in lower-case hex, and everything else (U+007F, non-ASCII, U+2028) is copied as is.
//
// The writer is a template over its sink, so the same code feeds a CRC stream (no text is built)
// and a text buffer. A sink has append(const char*, std::size_t) and push(char).
#pragma once

#include <cstddef>

namespace idgen::json_string {

// The escape of one byte, or nullptr when the byte is copied as is. `scratch` (7 bytes) holds a
// \u00xx escape; *len receives the escape's length.
inline const char* escape_of(unsigned char c, char* scratch, std::size_t* len) noexcept {
  switch (c) {
    case '"':
      *len = 2;
      return "\\\"";
    case '\\':
      *len = 2;
      return "\\\\";
    case '\b':
      *len = 2;
      return "\\b";
    case '\f':
      *len = 2;
      return "\\f";
    case '\n':
      *len = 2;
      return "\\n";
    case '\r':
      *len = 2;
      return "\\r";
    case '\t':
      *len = 2;
      return "\\t";
    default:
      break;
  }
  if (c >= 0x20) return nullptr;
  static constexpr char kHex[] = "0123456789abcdef";
  scratch[0] = '\\';
  scratch[1] = 'u';
  scratch[2] = '0';
  scratch[3] = '0';
  scratch[4] = kHex[c >> 4];
  scratch[5] = kHex[c & 0xf];
  *len = 6;
  return scratch;
}

// Whether a byte needs an escape: `"`, `\` and everything below U+0020.
inline bool needs_escape(unsigned char c) noexcept { return c < 0x20 || c == '"' || c == '\\'; }

// Writes `"`, the escaped bytes of s, `"`. Runs of bytes that need no escape go out in one append.
template <typename Sink>
void write(Sink& sink, const char* s, std::size_t n) noexcept {
  sink.push('"');
  std::size_t i = 0;
  char scratch[7];
  while (i < n) {
    const std::size_t run = i;
    while (i < n && !needs_escape(static_cast<unsigned char>(s[i]))) ++i;
    sink.append(s + run, i - run);
    if (i == n) break;
    std::size_t len = 0;
    const char* escape = escape_of(static_cast<unsigned char>(s[i]), scratch, &len);
    sink.append(escape, len);
    ++i;
  }
  sink.push('"');
}

}  // namespace idgen::json_string
