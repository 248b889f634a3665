// See type_id.hpp.
#include "core/type_id.hpp"

#include <algorithm>
#include <cstring>

namespace idgen::type_id {

Checked check_prefix(const char* prefix, std::size_t len) noexcept {
  if (len > kMaxPrefix) return {Problem::prefix_too_long, kMaxPrefix};
  for (std::size_t i = 0; i < len; ++i) {
    const char c = prefix[i];
    if (!((c >= 'a' && c <= 'z') || c == '_')) return {Problem::prefix_character, i};
  }
  if (len > 0 && prefix[0] == '_') return {Problem::prefix_underscore_edge, 0};
  if (len > 0 && prefix[len - 1] == '_') return {Problem::prefix_underscore_edge, len - 1};
  return {Problem::none, 0};
}

std::size_t format(const char* prefix, std::size_t prefix_len, const Uuid& id, char* out) noexcept {
  std::size_t n = 0;
  if (prefix_len > 0) {
    std::memcpy(out, prefix, prefix_len);
    n = prefix_len;
    out[n++] = '_';
  }
  crockford32::encode(id, crockford32::Case::lower, out + n);
  return n + crockford32::kChars;
}

Parsed parse(const char* text, std::size_t len) noexcept {
  Parsed result{{Problem::none, 0}, 0, Uuid{}};
  std::size_t suffix_start = 0;
  for (std::size_t i = len; i > 0; --i) {
    if (text[i - 1] == '_') {
      suffix_start = i;
      break;
    }
  }
  if (suffix_start == 1) {
    result.checked = {Problem::empty_prefix, 0};
    return result;
  }
  // Without "_" the text is a bare suffix: one of another length was most likely meant to have a
  // prefix, and is reported as such rather than by its first character that base32 refuses.
  if (suffix_start == 0 && len != crockford32::kChars) {
    const bool dash = std::memchr(text, '-', len) != nullptr;
    result.checked = {dash ? Problem::dash_separator : Problem::no_separator, 0};
    return result;
  }
  const std::size_t prefix_len = suffix_start == 0 ? 0 : suffix_start - 1;
  const Checked prefix = check_prefix(text, prefix_len);
  if (prefix.problem != Problem::none) {
    result.checked = prefix;
    return result;
  }
  const DecodeResult decoded = crockford32::decode(text + suffix_start, len - suffix_start,
                                                   crockford32::Reading::lower_only, &result.id);
  switch (decoded.status) {
    case DecodeStatus::ok:
      break;
    case DecodeStatus::bad_character:
      result.checked = {Problem::suffix_character, suffix_start + decoded.position};
      return result;
    case DecodeStatus::out_of_range:
      result.checked = {Problem::suffix_overflow, suffix_start};
      return result;
    case DecodeStatus::bad_length:
      result.checked = {Problem::suffix_length, suffix_start};
      return result;
  }
  result.prefix_len = prefix_len;
  return result;
}

bool has_prefix(const char* text, const Parsed& parsed, const char* prefix,
                std::size_t prefix_len) noexcept {
  return parsed.prefix_len == prefix_len && std::memcmp(text, prefix, prefix_len) == 0;
}

Checked check_stored(const std::uint8_t* bytes, std::size_t len) noexcept {
  if (len < kStoredMin) return {Problem::suffix_length, 0};
  return check_prefix(reinterpret_cast<const char*>(bytes + kStoredMin), len - kStoredMin);
}

int compare_stored(const std::uint8_t* a, std::size_t a_len, const std::uint8_t* b,
                   std::size_t b_len) noexcept {
  const std::size_t a_prefix = a_len - kStoredMin;
  const std::size_t b_prefix = b_len - kStoredMin;
  const int by_prefix = std::memcmp(a + kStoredMin, b + kStoredMin, std::min(a_prefix, b_prefix));
  if (by_prefix != 0) return by_prefix < 0 ? -1 : 1;
  if (a_prefix != b_prefix) return a_prefix < b_prefix ? -1 : 1;
  const int by_uuid = std::memcmp(a, b, kStoredMin);
  return by_uuid < 0 ? -1 : by_uuid > 0 ? 1 : 0;
}

}  // namespace idgen::type_id
