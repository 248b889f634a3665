// SQL functions of the alphanumeric (base62) and hexadecimal id encodings
// (docs/distributed-id.md): encoders for bigint, DistributedId numeric and uuid, strict decoders,
// and their try_ forms that answer NULL instead of raising (for URL parameters: NULL becomes a
// 404).
//
// Errors: malformed text 22P02 (wrong length, a character outside the alphabet), a well-formed
// value outside what the target holds 22003; the input is quoted clipped to 40 characters.
#include <cstdint>

#include "core/base62.hpp"
#include "core/hex.hpp"
#include "core/stack_safe.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/numeric_u128.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

enum class Target { bigint, distributed_id, uuid };

// One text form of one target: its name in messages, its length and alphabet, and its decoder
// (widened to u128, with the target's own range applied).
struct TextForm {
  const char* name;
  const char* alphabet;
  std::size_t length;
  const char* range;  // errdetail for out_of_range
  Target target;
  DecodeResult (*decode)(const char* text, std::size_t len, u128* out);
};
IDGEN_STACK_SAFE(TextForm);

template <DecodeResult (*Decode64)(const char*, std::size_t, std::uint64_t*)>
DecodeResult decode_bigint(const char* text, std::size_t len, u128* out) {
  std::uint64_t v = 0;
  DecodeResult r = Decode64(text, len, &v);
  if (r.status == DecodeStatus::ok && v > static_cast<std::uint64_t>(INT64_MAX)) {
    r.status = DecodeStatus::out_of_range;
  }
  *out = v;
  return r;
}

constexpr const char* kBase62Alphabet = "0-9, A-Z, a-z";
constexpr const char* kHexAlphabet = "0-9, A-F, a-f";

const TextForm kAlphanumericBigint = {
    "alphanumeric bigint", kBase62Alphabet,
    base62::kU64Chars,     "A bigint is at most 9223372036854775807, alphanumeric AzL8n0Y58m7.",
    Target::bigint,        decode_bigint<base62::decode_u64>};
const TextForm kAlphanumericDistributedId = {
    "alphanumeric DistributedId",
    kBase62Alphabet,
    base62::kDecimal28Chars,
    "A DistributedId is at most 9999999999999999999999999999, alphanumeric agbFu5KnEQGxp4QB.",
    Target::distributed_id,
    base62::decode_decimal28};
const TextForm kAlphanumericUuid = {
    "alphanumeric uuid", kBase62Alphabet,
    base62::kU128Chars,  "Each 11-character half is at most LygHa16AHYF (2^64 - 1).",
    Target::uuid,        base62::decode_u128};
const TextForm kHexadecimalBigint = {"hexadecimal bigint", kHexAlphabet,
                                     hex::kU64Chars,       "A bigint is at most 7FFFFFFFFFFFFFFF.",
                                     Target::bigint,       decode_bigint<hex::decode_u64>};
const TextForm kHexadecimalDistributedId = {
    "hexadecimal DistributedId",
    kHexAlphabet,
    hex::kDecimal28Chars,
    "A DistributedId starts with 00 and is at most 00204FCE5E3E2502610FFFFFFF (10^28 - 1).",
    Target::distributed_id,
    hex::decode_decimal28};
const TextForm kHexadecimalUuid = {"hexadecimal uuid", kHexAlphabet,    hex::kU128Chars, "",
                                   Target::uuid,       hex::decode_u128};

// Decodes text argument 0. With raise, a rejected input is an error; without, it is NULL.
Datum decode_text_arg(FunctionCallInfo fcinfo, const TextForm& form, bool raise) {
  text* arg = PG_GETARG_TEXT_PP(0);
  const char* data = VARDATA_ANY(arg);
  const int len = static_cast<int>(VARSIZE_ANY_EXHDR(arg));
  u128 value = 0;
  const DecodeResult r = form.decode(data, static_cast<std::size_t>(len), &value);
  if (r.status != DecodeStatus::ok) {
    if (!raise) PG_RETURN_NULL();
    const char* shown = clip_for_message(data, len);
    switch (r.status) {
      case DecodeStatus::bad_length:
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("invalid %s: \"%s\"", form.name, shown),
                        errdetail("Expected exactly %zu characters, got %d.", form.length,
                                  pg_mbstrlen_with_len(data, len))));
        break;
      case DecodeStatus::bad_character:
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("invalid %s: \"%s\"", form.name, shown),
                        errdetail("Character %d is not one of %s.",
                                  pg_mbstrlen_with_len(data, static_cast<int>(r.position)) + 1,
                                  form.alphabet)));
        break;
      case DecodeStatus::ok:  // handled above
        break;
      case DecodeStatus::out_of_range:
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("%s out of range: \"%s\"", form.name, shown),
                        form.range[0] != '\0' ? errdetail("%s", form.range) : 0));
    }
  }
  switch (form.target) {
    case Target::bigint:
      PG_RETURN_INT64(static_cast<std::int64_t>(value));
    case Target::distributed_id:
      return numeric_datum(value);
    case Target::uuid:
      break;
  }
  return uuid_datum(uuid_from_u128(value));
}

std::uint64_t nonnegative_int_arg(FunctionCallInfo fcinfo, const char* encoding, IntWidth width) {
  const std::int64_t v = widened_int_arg(fcinfo, 0, width);
  if (v < 0) {
    ereport(ERROR,
            (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
             errmsg("negative value %lld has no %s form", static_cast<long long>(v), encoding),
             errdetail("Only bigint values from 0 to 9223372036854775807 are encoded.")));
  }
  return static_cast<std::uint64_t>(v);
}

// One text encoding: its name in messages and its encoder and width for each source type.
struct Encoding {
  const char* name;
  void (*encode_u64)(std::uint64_t, char*);
  std::size_t u64_chars;
  void (*encode_decimal28)(u128, char*);
  std::size_t decimal28_chars;
  void (*encode_u128)(u128, char*);
  std::size_t u128_chars;
};
IDGEN_STACK_SAFE(Encoding);

const Encoding kAlphanumeric = {
    "alphanumeric",          base62::encode_u64,  base62::kU64Chars, base62::encode_decimal28,
    base62::kDecimal28Chars, base62::encode_u128, base62::kU128Chars};
const Encoding kHexadecimal = {"hexadecimal",         hex::encode_u64,      hex::kU64Chars,
                               hex::encode_decimal28, hex::kDecimal28Chars, hex::encode_u128,
                               hex::kU128Chars};

enum class Source { bigint, distributed_id, uuid };

// Encodes argument 0 (an integer of the given width, a DistributedId numeric or a uuid) as text.
Datum encode_arg(FunctionCallInfo fcinfo, const Encoding& encoding, Source source,
                 IntWidth width = IntWidth::bigint) {
  char out[32];
  std::size_t len = 0;
  switch (source) {
    case Source::bigint:
      encoding.encode_u64(nonnegative_int_arg(fcinfo, encoding.name, width), out);
      len = encoding.u64_chars;
      break;
    case Source::distributed_id:
      encoding.encode_decimal28(numeric_arg(fcinfo, 0, kDistributedIdDomain), out);
      len = encoding.decimal28_chars;
      break;
    case Source::uuid:
      encoding.encode_u128(u128_from_uuid(uuid_arg(fcinfo, 0)), out);
      len = encoding.u128_chars;
      break;
  }
  return PointerGetDatum(cstring_to_text_with_len(out, static_cast<int>(len)));
}

}  // namespace

// ---- encoders --------------------------------------------------------------------------------

IDGEN_SQL_FUNCTION(idgen_to_alphanumeric_bigint) {
  return encode_arg(fcinfo, kAlphanumeric, Source::bigint);
}
IDGEN_SQL_FUNCTION(idgen_to_alphanumeric_numeric) {
  return encode_arg(fcinfo, kAlphanumeric, Source::distributed_id);
}
IDGEN_SQL_FUNCTION(idgen_to_alphanumeric_uuid) {
  return encode_arg(fcinfo, kAlphanumeric, Source::uuid);
}
IDGEN_SQL_FUNCTION(idgen_to_alphanumeric_integer) {
  return encode_arg(fcinfo, kAlphanumeric, Source::bigint, IntWidth::integer);
}
IDGEN_SQL_FUNCTION(idgen_to_alphanumeric_smallint) {
  return encode_arg(fcinfo, kAlphanumeric, Source::bigint, IntWidth::smallint);
}
IDGEN_SQL_FUNCTION(idgen_to_hexadecimal_bigint) {
  return encode_arg(fcinfo, kHexadecimal, Source::bigint);
}
IDGEN_SQL_FUNCTION(idgen_to_hexadecimal_numeric) {
  return encode_arg(fcinfo, kHexadecimal, Source::distributed_id);
}
IDGEN_SQL_FUNCTION(idgen_to_hexadecimal_uuid) {
  return encode_arg(fcinfo, kHexadecimal, Source::uuid);
}
IDGEN_SQL_FUNCTION(idgen_to_hexadecimal_integer) {
  return encode_arg(fcinfo, kHexadecimal, Source::bigint, IntWidth::integer);
}
IDGEN_SQL_FUNCTION(idgen_to_hexadecimal_smallint) {
  return encode_arg(fcinfo, kHexadecimal, Source::bigint, IntWidth::smallint);
}

// ---- decoders: raising and try_ forms --------------------------------------------------------

// Written out rather than pasted by a macro, so that grep and ctags find each by its C name.
IDGEN_SQL_FUNCTION(idgen_alphanumeric_to_bigint) {
  return decode_text_arg(fcinfo, kAlphanumericBigint, true);
}
IDGEN_SQL_FUNCTION(idgen_try_alphanumeric_to_bigint) {
  return decode_text_arg(fcinfo, kAlphanumericBigint, false);
}
IDGEN_SQL_FUNCTION(idgen_alphanumeric_to_numeric) {
  return decode_text_arg(fcinfo, kAlphanumericDistributedId, true);
}
IDGEN_SQL_FUNCTION(idgen_try_alphanumeric_to_numeric) {
  return decode_text_arg(fcinfo, kAlphanumericDistributedId, false);
}
IDGEN_SQL_FUNCTION(idgen_alphanumeric_to_uuid) {
  return decode_text_arg(fcinfo, kAlphanumericUuid, true);
}
IDGEN_SQL_FUNCTION(idgen_try_alphanumeric_to_uuid) {
  return decode_text_arg(fcinfo, kAlphanumericUuid, false);
}
IDGEN_SQL_FUNCTION(idgen_hexadecimal_to_bigint) {
  return decode_text_arg(fcinfo, kHexadecimalBigint, true);
}
IDGEN_SQL_FUNCTION(idgen_try_hexadecimal_to_bigint) {
  return decode_text_arg(fcinfo, kHexadecimalBigint, false);
}
IDGEN_SQL_FUNCTION(idgen_hexadecimal_to_numeric) {
  return decode_text_arg(fcinfo, kHexadecimalDistributedId, true);
}
IDGEN_SQL_FUNCTION(idgen_try_hexadecimal_to_numeric) {
  return decode_text_arg(fcinfo, kHexadecimalDistributedId, false);
}
IDGEN_SQL_FUNCTION(idgen_hexadecimal_to_uuid) {
  return decode_text_arg(fcinfo, kHexadecimalUuid, true);
}
IDGEN_SQL_FUNCTION(idgen_try_hexadecimal_to_uuid) {
  return decode_text_arg(fcinfo, kHexadecimalUuid, false);
}

}  // namespace idgen::pg
