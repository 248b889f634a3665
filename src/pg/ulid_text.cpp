// See ulid_text.hpp.
#include "pg/ulid_text.hpp"

#include <cstddef>

#include "core/crockford32.hpp"
#include "pg/compat.hpp"
#include "pg/convert.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "mb/pg_wchar.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

bool decode_ulid_text(const char* data, int len, bool raise, Node* escontext, Uuid* out) {
  const DecodeResult r =
      crockford32::decode(data, static_cast<std::size_t>(len), crockford32::Reading::any_case, out);
  if (r.status == DecodeStatus::ok) return true;
  if (!raise) return false;
  const char* shown = clip_for_message(data, len);
  switch (r.status) {
    case DecodeStatus::bad_length:
      IDGEN_INPUT_ERROR(
          escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
          errmsg("invalid ULID: \"%s\"", shown),
          errdetail("A ULID is exactly 26 characters, got %d.", pg_mbstrlen_with_len(data, len)));
      break;
    case DecodeStatus::bad_character: {
      const int at = static_cast<int>(r.position);
      const int char_len = pg_mblen(data + at);
      IDGEN_INPUT_ERROR(
          escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
          errmsg("invalid ULID: \"%s\"", shown),
          errdetail("Character %d (\"%s\") is not in Crockford's base32 alphabet "
                    "0-9, A-Z without I, L, O and U (either case).",
                    pg_mbstrlen_with_len(data, at) + 1, clip_for_message(data + at, char_len)));
      break;
    }
    case DecodeStatus::ok:  // returned above
      break;
    case DecodeStatus::out_of_range:
      IDGEN_INPUT_ERROR(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("invalid ULID: \"%s\"", shown),
                        errdetail("The first character is \"%c\"; a ULID starts with 0 to 7 (the "
                                  "largest is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ).",
                                  data[0]));
      break;
  }
  return false;
}

char* ulid_cstring(const Uuid& id) {
  char* out = static_cast<char*>(palloc(crockford32::kChars + 1));
  crockford32::encode(id, crockford32::Case::upper, out);
  out[crockford32::kChars] = '\0';
  return out;
}

}  // namespace idgen::pg
