// SQL functions of TypeIDs as text (docs/typeid.md): made from a prefix and a new UUIDv7 or a given
// uuid, decoded (strict and try_, with or without the prefix it must have), the prefix, and the
// check for CHECK constraints. The idgen.typeid type is in typeid_type.cpp.
//
// Errors: a prefix that TypeID does not allow 22023 naming the rule; a malformed TypeID 22P02
// naming the rule and, for a bad character, its position; a TypeID of another prefix than the one
// asked for 22023.
#include <cstdint>
#include <cstring>

#include "core/type_id.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/postgres.hpp"
#include "pg/typeid_text.hpp"
#include "pg/generators/uuidv7_generator.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/builtins.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

// Text argument n as a checked prefix; raises 22023.
text* prefix_arg(FunctionCallInfo fcinfo, int n) {
  require_arg(fcinfo, n, "prefix");
  text* prefix = PG_GETARG_TEXT_PP(n);
  check_typeid_prefix(VARDATA_ANY(prefix), static_cast<int>(VARSIZE_ANY_EXHDR(prefix)));
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
  type_id::Parsed parsed;
  *ok = parse_typeid_text(VARDATA_ANY(arg), static_cast<int>(VARSIZE_ANY_EXHDR(arg)), raise,
                          nullptr, &parsed);
  return parsed;
}

// Whether a parsed TypeID (text argument 0) has exactly the prefix of text argument n.
bool has_prefix(FunctionCallInfo fcinfo, const type_id::Parsed& parsed, int n) {
  text* expected = PG_GETARG_TEXT_PP(n);
  return type_id::has_prefix(VARDATA_ANY(PG_GETARG_TEXT_PP(0)), parsed, VARDATA_ANY(expected),
                             VARSIZE_ANY_EXHDR(expected));
}

// The uuid of text argument 0 when it is a TypeID with the prefix of argument 1 (a valid prefix:
// 22023 otherwise). With raise, malformed text is 22P02 and another prefix 22023; else NULL.
Datum checked_uuid(FunctionCallInfo fcinfo, bool raise) {
  text* expected = prefix_arg(fcinfo, 1);
  bool ok = false;
  const type_id::Parsed parsed = parse_arg(fcinfo, raise, &ok);
  if (!ok) PG_RETURN_NULL();
  if (has_prefix(fcinfo, parsed, 1)) return uuid_datum(parsed.id);
  if (!raise) PG_RETURN_NULL();
  text* arg = PG_GETARG_TEXT_PP(0);
  const int expected_len = static_cast<int>(VARSIZE_ANY_EXHDR(expected));
  ereport(
      ERROR,
      (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
       errmsg("TypeID \"%s\" does not have the prefix \"%s\"",
              clip_for_message(VARDATA_ANY(arg), static_cast<int>(VARSIZE_ANY_EXHDR(arg))),
              clip_for_message(VARDATA_ANY(expected), expected_len)),
       parsed.prefix_len == 0
           ? errdetail("It has no prefix.")
           : errdetail("Its prefix is \"%s\".",
                       clip_for_message(VARDATA_ANY(arg), static_cast<int>(parsed.prefix_len)))));
  pg_unreachable();
}

}  // namespace

// idgen.typeid(prefix text): a new TypeID on a new UUIDv7 (VOLATILE, not STRICT: NULL is 22023).
IDGEN_SQL_FUNCTION(idgen_typeid) {
  text* prefix = prefix_arg(fcinfo, 0);
  return typeid_datum(prefix, next_uuidv7());
}

// idgen.typeid(prefix unknown): the same for a literal prefix (idgen.typeid('user')), which
// PostgreSQL would otherwise read as the cast of 'user' to the type idgen.typeid.
IDGEN_SQL_FUNCTION(idgen_typeid_of_literal) {
  require_arg(fcinfo, 0, "prefix");
  const char* prefix = PG_GETARG_CSTRING(0);
  const int len = static_cast<int>(std::strlen(prefix));
  check_typeid_prefix(prefix, len);
  char out[type_id::kMaxText];
  const std::size_t n = type_id::format(prefix, static_cast<std::size_t>(len), next_uuidv7(), out);
  return PointerGetDatum(cstring_to_text_with_len(out, static_cast<int>(n)));
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
  PG_RETURN_BOOL(ok && has_prefix(fcinfo, parsed, 1));
}

// idgen.typeid_to_uuid(typeid text, prefix text) STRICT and its try_ form: the uuid only of a
// TypeID with exactly that prefix, so an id of one type never finds a row of another.
IDGEN_SQL_FUNCTION(idgen_typeid_to_uuid_with_prefix) { return checked_uuid(fcinfo, true); }
IDGEN_SQL_FUNCTION(idgen_try_typeid_to_uuid_with_prefix) { return checked_uuid(fcinfo, false); }

}  // namespace idgen::pg
