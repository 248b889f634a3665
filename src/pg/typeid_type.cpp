// The idgen.typeid type (docs/typeid.md): a TypeID kept as its UUID's 16 bytes and its prefix's
// characters (core/type_id.hpp's stored form, behind a varlena header), whose text is
// prefix_suffix. Text and binary I/O, the order by prefix then uuid with sort support, hashes, the
// prefix, the uuid (the cast to uuid) and new TypeIDs made directly in the stored form.
//
// Errors: malformed text 22P02 naming the rule (a soft error where the caller asks for one, 16+);
// a binary value that is not a stored form 22P03; a prefix parameter TypeID does not allow 22023.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/type_id.hpp"
#include "pg/callback.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/postgres.hpp"
#include "pg/typeid_text.hpp"
#include "pg/generators/uuidv7_generator.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "common/hashfn.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

// A value's stored form: the uuid's bytes, then the prefix's.
struct Stored {
  const std::uint8_t* bytes;
  std::size_t len;
};
IDGEN_STACK_SAFE(Stored);

Stored stored_of(const varlena* value) {
  return {reinterpret_cast<const std::uint8_t*>(VARDATA_ANY(value)), VARSIZE_ANY_EXHDR(value)};
}

Stored stored_arg(FunctionCallInfo fcinfo, int n) { return stored_of(PG_GETARG_VARLENA_PP(n)); }

const char* prefix_of(const Stored& s) {
  return reinterpret_cast<const char*>(s.bytes + type_id::kStoredMin);
}

std::size_t prefix_len_of(const Stored& s) { return s.len - type_id::kStoredMin; }

Uuid uuid_of(const Stored& s) {
  Uuid id;
  std::memcpy(id.bytes.data(), s.bytes, type_id::kStoredMin);
  return id;
}

// A new value of a checked prefix and a uuid.
Datum typeid_value_datum(const char* prefix, std::size_t prefix_len, const Uuid& id) {
  const std::size_t len = type_id::kStoredMin + prefix_len;
  auto* out = static_cast<varlena*>(palloc(VARHDRSZ + len));
  SET_VARSIZE(out, VARHDRSZ + len);
  auto* bytes = reinterpret_cast<std::uint8_t*>(VARDATA(out));
  std::memcpy(bytes, id.bytes.data(), type_id::kStoredMin);
  std::memcpy(bytes + type_id::kStoredMin, prefix, prefix_len);
  return PointerGetDatum(out);
}

int compare_args(FunctionCallInfo fcinfo) {
  const Stored a = stored_arg(fcinfo, 0);
  const Stored b = stored_arg(fcinfo, 1);
  return type_id::compare_stored(a.bytes, a.len, b.bytes, b.len);
}

// Sort support's comparator: detoasts (a value of a wide row may be compressed) and frees what
// it made.
int compare_datums(Datum a, Datum b, SortSupport) noexcept {
  varlena* x = PG_DETOAST_DATUM_PACKED(a);
  varlena* y = PG_DETOAST_DATUM_PACKED(b);
  const Stored sx = stored_of(x);
  const Stored sy = stored_of(y);
  const int order = type_id::compare_stored(sx.bytes, sx.len, sy.bytes, sy.len);
  if (PointerGetDatum(x) != a) pfree(x);
  if (PointerGetDatum(y) != b) pfree(y);
  return order;
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_typeid_in) {
  const char* text = PG_GETARG_CSTRING(0);
  type_id::Parsed parsed;
  if (!parse_typeid_text(text, static_cast<int>(std::strlen(text)), true, fcinfo->context,
                         &parsed)) {
    PG_RETURN_NULL();  // a soft error: the caller ignores the result
  }
  return typeid_value_datum(text, parsed.prefix_len, parsed.id);
}

IDGEN_SQL_FUNCTION(idgen_typeid_out) {
  const Stored s = stored_arg(fcinfo, 0);
  char* out = static_cast<char*>(palloc(type_id::kMaxText + 1));
  const std::size_t n = type_id::format(prefix_of(s), prefix_len_of(s), uuid_of(s), out);
  out[n] = '\0';
  PG_RETURN_CSTRING(out);
}

// Binary input: the stored form (16 bytes of uuid, then the prefix), checked as text is.
IDGEN_SQL_FUNCTION(idgen_typeid_recv) {
  StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
  const int len = buf->len - buf->cursor;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(pq_getmsgbytes(buf, len));
  const type_id::Checked checked = type_id::check_stored(bytes, static_cast<std::size_t>(len));
  if (checked.problem != type_id::Problem::none) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION), errmsg("invalid binary TypeID"),
                    len < static_cast<int>(type_id::kStoredMin)
                        ? errdetail("It has %d bytes; the uuid alone has 16.", len)
                        : errdetail("Its prefix breaks a rule: %s",
                                    typeid_problem_detail(checked.problem))));
  }
  const Stored s{bytes, static_cast<std::size_t>(len)};
  return typeid_value_datum(prefix_of(s), prefix_len_of(s), uuid_of(s));
}

IDGEN_SQL_FUNCTION(idgen_typeid_send) {
  const Stored s = stored_arg(fcinfo, 0);
  StringInfoData buf;
  pq_begintypsend(&buf);
  pq_sendbytes(&buf, reinterpret_cast<const char*>(s.bytes), static_cast<int>(s.len));
  PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

IDGEN_SQL_FUNCTION(idgen_typeid_lt) { PG_RETURN_BOOL(compare_args(fcinfo) < 0); }
IDGEN_SQL_FUNCTION(idgen_typeid_le) { PG_RETURN_BOOL(compare_args(fcinfo) <= 0); }
IDGEN_SQL_FUNCTION(idgen_typeid_eq) { PG_RETURN_BOOL(compare_args(fcinfo) == 0); }
IDGEN_SQL_FUNCTION(idgen_typeid_ne) { PG_RETURN_BOOL(compare_args(fcinfo) != 0); }
IDGEN_SQL_FUNCTION(idgen_typeid_ge) { PG_RETURN_BOOL(compare_args(fcinfo) >= 0); }
IDGEN_SQL_FUNCTION(idgen_typeid_gt) { PG_RETURN_BOOL(compare_args(fcinfo) > 0); }
IDGEN_SQL_FUNCTION(idgen_typeid_cmp) { PG_RETURN_INT32(compare_args(fcinfo)); }

IDGEN_SQL_FUNCTION(idgen_typeid_sortsupport) {
  reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0))->comparator =
      noexcept_callback(compare_datums);
  PG_RETURN_VOID();
}

IDGEN_SQL_FUNCTION(idgen_typeid_hash) {
  const Stored s = stored_arg(fcinfo, 0);
  return hash_any(s.bytes, static_cast<int>(s.len));
}

IDGEN_SQL_FUNCTION(idgen_typeid_hash_extended) {
  const Stored s = stored_arg(fcinfo, 0);
  return hash_any_extended(s.bytes, static_cast<int>(s.len),
                           static_cast<std::uint64_t>(PG_GETARG_INT64(1)));
}

// idgen.new_typeid(prefix text): a new TypeID on a new UUIDv7 from idgen.uuidv7()'s generator,
// made in the stored form (no text to format or parse). Not STRICT: NULL is 22023.
IDGEN_SQL_FUNCTION(idgen_new_typeid) {
  require_arg(fcinfo, 0, "prefix");
  text* prefix = PG_GETARG_TEXT_PP(0);
  const int prefix_len = static_cast<int>(VARSIZE_ANY_EXHDR(prefix));
  check_typeid_prefix(VARDATA_ANY(prefix), prefix_len);
  return typeid_value_datum(VARDATA_ANY(prefix), static_cast<std::size_t>(prefix_len),
                            next_uuidv7());
}

// idgen.try_typeid(typeid text, prefix text) STRICT: the value of a TypeID with exactly that
// prefix, else NULL (malformed text too), for lookups of ids that clients send: `WHERE id =
// idgen.try_typeid($1, 'user')` finds nothing where a cast of the text would raise. A prefix
// argument TypeID does not allow is 22023.
IDGEN_SQL_FUNCTION(idgen_try_typeid) {
  text* expected = PG_GETARG_TEXT_PP(1);
  const std::size_t expected_len = VARSIZE_ANY_EXHDR(expected);
  check_typeid_prefix(VARDATA_ANY(expected), static_cast<int>(expected_len));
  text* arg = PG_GETARG_TEXT_PP(0);
  type_id::Parsed parsed;
  if (!parse_typeid_text(VARDATA_ANY(arg), static_cast<int>(VARSIZE_ANY_EXHDR(arg)), false, nullptr,
                         &parsed) ||
      !type_id::has_prefix(VARDATA_ANY(arg), parsed, VARDATA_ANY(expected), expected_len)) {
    PG_RETURN_NULL();
  }
  return typeid_value_datum(VARDATA_ANY(arg), parsed.prefix_len, parsed.id);
}

// idgen.typeid_prefix(idgen.typeid) STRICT: the prefix ('' for none).
IDGEN_SQL_FUNCTION(idgen_typeid_prefix_of_type) {
  const Stored s = stored_arg(fcinfo, 0);
  return PointerGetDatum(
      cstring_to_text_with_len(prefix_of(s), static_cast<int>(prefix_len_of(s))));
}

// idgen.typeid_to_uuid(idgen.typeid) STRICT: the uuid (also the cast to uuid).
IDGEN_SQL_FUNCTION(idgen_typeid_to_uuid_of_type) {
  return uuid_datum(uuid_of(stored_arg(fcinfo, 0)));
}

}  // namespace idgen::pg
