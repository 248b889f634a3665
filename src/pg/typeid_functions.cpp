// SQL functions of TypeIDs (docs/typeid.md): made from a prefix and a new UUIDv7 or a given uuid,
// decoded (strict and try_), the prefix, and the check for CHECK constraints.
//
// Errors: a prefix that TypeID does not allow 22023 naming the rule; a malformed TypeID 22P02
// naming the rule and, for a bad character, its position.
#include <cstdint>
#include <cstring>

#include "core/type_id.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/postgres.hpp"
#include "pg/uuidv7_generator.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

// What a problem means, for errdetail.
const char* problem_detail(type_id::Problem problem) {
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
    case type_id::Problem::suffix_length:
      return "The part after the last \"_\" must be 26 characters.";
    case type_id::Problem::suffix_character:
      return "The suffix is lower-case Crockford base32: 0-9 and a-z without i, l, o and u.";
    case type_id::Problem::suffix_overflow:
      return "The suffix starts with 0 to 7 (it encodes 128 bits in 130).";
  }
  return "";
}

bool is_character_problem(type_id::Problem problem) {
  return problem == type_id::Problem::prefix_character ||
         problem == type_id::Problem::suffix_character;
}

// Text argument n as a checked prefix; raises 22023.
text* prefix_arg(FunctionCallInfo fcinfo, int n) {
  require_arg(fcinfo, n, "prefix");
  text* prefix = PG_GETARG_TEXT_PP(n);
  const char* data = VARDATA_ANY(prefix);
  const int len = static_cast<int>(VARSIZE_ANY_EXHDR(prefix));
  const type_id::Checked checked = type_id::check_prefix(data, static_cast<std::size_t>(len));
  if (checked.problem != type_id::Problem::none) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("invalid TypeID prefix: \"%s\"", clip_for_message(data, len)),
                    errdetail("%s", problem_detail(checked.problem))));
  }
  return prefix;
}

Datum typeid_datum(text* prefix, const Uuid& id) {
  char out[type_id::kMaxText];
  const std::size_t n = type_id::format(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix), id, out);
  return PointerGetDatum(cstring_to_text_with_len(out, static_cast<int>(n)));
}

// Parses text argument 0; with raise, a rejected text is an error (22P02), else *ok is false.
type_id::Parsed parse_arg(FunctionCallInfo fcinfo, bool raise, bool* ok) {
  text* arg = PG_GETARG_TEXT_PP(0);
  const char* data = VARDATA_ANY(arg);
  const int len = static_cast<int>(VARSIZE_ANY_EXHDR(arg));
  const type_id::Parsed parsed = type_id::parse(data, static_cast<std::size_t>(len));
  *ok = parsed.checked.problem == type_id::Problem::none;
  if (*ok || !raise) return parsed;
  const char* shown = clip_for_message(data, len);
  if (is_character_problem(parsed.checked.problem)) {
    const int at = static_cast<int>(parsed.checked.position);
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg("invalid TypeID: \"%s\"", shown),
             errdetail("Character %d (\"%s\"): %s", pg_mbstrlen_with_len(data, at) + 1,
                       clip_for_message(data + at, pg_mblen(data + at)),
                       problem_detail(parsed.checked.problem))));
  }
  ereport(ERROR,
          (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg("invalid TypeID: \"%s\"", shown),
           errdetail("%s", problem_detail(parsed.checked.problem))));
  pg_unreachable();
}

}  // namespace

// idgen.typeid(prefix text): a new TypeID on a new UUIDv7 (VOLATILE, not STRICT: NULL is 22023).
IDGEN_SQL_FUNCTION(idgen_typeid) {
  text* prefix = prefix_arg(fcinfo, 0);
  return typeid_datum(prefix, next_uuidv7());
}

// idgen.typeid(prefix text, id uuid) STRICT: the TypeID of a given uuid.
IDGEN_SQL_FUNCTION(idgen_typeid_of_uuid) {
  text* prefix = prefix_arg(fcinfo, 0);
  return typeid_datum(prefix, uuid_arg(fcinfo, 1));
}

// idgen.typeid_to_uuid(text) STRICT and idgen.try_typeid_to_uuid(text) STRICT.
IDGEN_SQL_FUNCTION(idgen_typeid_to_uuid) {
  bool ok = false;
  return uuid_datum(parse_arg(fcinfo, true, &ok).id);
}

IDGEN_SQL_FUNCTION(idgen_try_typeid_to_uuid) {
  bool ok = false;
  const type_id::Parsed parsed = parse_arg(fcinfo, false, &ok);
  if (!ok) PG_RETURN_NULL();
  return uuid_datum(parsed.id);
}

// idgen.typeid_prefix(text) STRICT: the prefix of a valid TypeID ('' for none); 22P02 otherwise.
IDGEN_SQL_FUNCTION(idgen_typeid_prefix) {
  bool ok = false;
  const type_id::Parsed parsed = parse_arg(fcinfo, true, &ok);
  return PointerGetDatum(cstring_to_text_with_len(VARDATA_ANY(PG_GETARG_TEXT_PP(0)),
                                                  static_cast<int>(parsed.prefix_len)));
}

// idgen.typeid_valid(id text, prefix text) STRICT: whether id is a valid TypeID with exactly that
// prefix; never raises, for CHECK constraints on TypeIDs that clients make.
IDGEN_SQL_FUNCTION(idgen_typeid_valid) {
  bool ok = false;
  const type_id::Parsed parsed = parse_arg(fcinfo, false, &ok);
  if (!ok) PG_RETURN_BOOL(false);
  text* expected = PG_GETARG_TEXT_PP(1);
  const std::size_t expected_len = VARSIZE_ANY_EXHDR(expected);
  PG_RETURN_BOOL(
      expected_len == parsed.prefix_len &&
      std::memcmp(VARDATA_ANY(expected), VARDATA_ANY(PG_GETARG_TEXT_PP(0)), expected_len) == 0);
}

}  // namespace idgen::pg
