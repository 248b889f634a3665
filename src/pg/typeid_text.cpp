// See typeid_text.hpp.
#include "pg/typeid_text.hpp"

#include <cstddef>

#include "pg/compat.hpp"
#include "pg/convert.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "mb/pg_wchar.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

bool is_character_problem(type_id::Problem problem) {
  return problem == type_id::Problem::prefix_character ||
         problem == type_id::Problem::suffix_character;
}

}  // namespace

const char* typeid_problem_detail(type_id::Problem problem) {
  switch (problem) {
    case type_id::Problem::none:
      break;
    case type_id::Problem::prefix_too_long:
      return "A prefix has at most 63 characters.";
    case type_id::Problem::prefix_character:
      return "A prefix holds only lower-case letters a-z and \"_\".";
    case type_id::Problem::prefix_underscore_edge:
      return "A prefix neither starts nor ends with \"_\".";
    case type_id::Problem::empty_prefix:
      return "An empty prefix is written without the \"_\".";
    case type_id::Problem::no_separator:
      return "A TypeID is a prefix, \"_\" and a 26-character suffix, or the suffix alone; this "
             "has no \"_\" and is not 26 characters.";
    case type_id::Problem::dash_separator:
      return "The prefix and the suffix are separated by \"_\", not \"-\".";
    case type_id::Problem::suffix_length:
      return "The part after the last \"_\" must be 26 characters.";
    case type_id::Problem::suffix_character:
      return "The suffix is lower-case Crockford base32: 0-9 and a-z without i, l, o and u.";
    case type_id::Problem::suffix_overflow:
      return "The suffix starts with 0 to 7 (it encodes 128 bits in 130).";
  }
  return "";
}

void check_typeid_prefix(const char* data, int len) {
  const type_id::Checked checked = type_id::check_prefix(data, static_cast<std::size_t>(len));
  if (checked.problem != type_id::Problem::none) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("invalid TypeID prefix: \"%s\"", clip_for_message(data, len)),
                    errdetail("%s", typeid_problem_detail(checked.problem))));
  }
}

bool parse_typeid_text(const char* data, int len, bool raise, Node* escontext,
                       type_id::Parsed* out) {
  *out = type_id::parse(data, static_cast<std::size_t>(len));
  if (out->checked.problem == type_id::Problem::none) return true;
  if (!raise) return false;
  const char* shown = clip_for_message(data, len);
  if (is_character_problem(out->checked.problem)) {
    const int at = static_cast<int>(out->checked.position);
    IDGEN_INPUT_ERROR(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                      errmsg("invalid TypeID: \"%s\"", shown),
                      errdetail("Character %d (\"%s\"): %s", pg_mbstrlen_with_len(data, at) + 1,
                                clip_for_message(data + at, pg_mblen(data + at)),
                                typeid_problem_detail(out->checked.problem)));
  } else {
    IDGEN_INPUT_ERROR(escontext, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                      errmsg("invalid TypeID: \"%s\"", shown),
                      errdetail("%s", typeid_problem_detail(out->checked.problem)));
  }
  return false;
}

}  // namespace idgen::pg
