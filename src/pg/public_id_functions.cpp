// SQL functions of public identities (docs/public-id.md): idgen.public_id for bigint,
// DistributedId numeric and uuid, and idgen.public_id_to_bigint / _to_numeric / _to_uuid.
//
// Each C function serves both SQL signatures of its name: with one argument it uses the
// configured key ring (STABLE: a reload may change it between statements), with a trailing bytea
// key argument that key (IMMUTABLE). Decoding answers NULL for anything that is not a public id of
// the requested kind under the key, without saying which check failed.
//
// The ring (docs/public-id.md, "Rotating the key"): encoding uses its current key; the bigint and
// DistributedId decoders accept a public id under any of its keys, the current one first, since
// their plaintext's fixed bytes tell which key fits. A uuid's plaintext has none, so
// public_id_to_uuid decodes with the current key only, and public_id_to_uuids gives the decoding
// under every key for the caller to look up.
#include <cstddef>
#include <cstdint>

#include "core/public_id.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/numeric_u128.hpp"
#include "pg/postgres.hpp"
#include "pg/public_id_key.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

// The key of this call: argument 1 when given, else the configured one.
const AesBlockCipher& cipher_of_call(FunctionCallInfo fcinfo) {
  return PG_NARGS() > 1 ? explicit_public_id_cipher(fcinfo, 1) : configured_public_id_cipher();
}

[[noreturn]] void report_aes_failure() {
  ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("OpenSSL could not run AES")));
  pg_unreachable();
}

Datum public_id_datum(FunctionCallInfo fcinfo, const Uuid& plaintext) {
  Uuid published;
  if (!public_id::encrypt(cipher_of_call(fcinfo), plaintext, &published)) report_aes_failure();
  return uuid_datum(published);
}

// The plaintext behind public id argument 0 under the key of this call.
Uuid plaintext_arg(FunctionCallInfo fcinfo) {
  const Uuid published = uuid_arg(fcinfo, 0);
  Uuid plaintext;
  if (!public_id::decrypt(cipher_of_call(fcinfo), published, &plaintext)) report_aes_failure();
  return plaintext;
}

// The plaintexts behind public id argument 0 under each key of the configured ring, current
// first; returns their number.
std::size_t ring_plaintexts_arg(FunctionCallInfo fcinfo, Uuid plaintexts[public_id::kMaxRingKeys]) {
  const Uuid published = uuid_arg(fcinfo, 0);
  const std::size_t n = configured_public_id_ring();
  for (std::size_t i = 0; i < n; ++i) {
    if (!public_id::decrypt(configured_public_id_key(i), published, &plaintexts[i])) {
      report_aes_failure();
    }
  }
  return n;
}

// The plaintext behind public id argument 0 that `valid` accepts: under the key argument when
// given, else under the first key of the ring that gives one. False when none does.
bool valid_plaintext_arg(FunctionCallInfo fcinfo, bool (*valid)(const Uuid&), Uuid* plaintext) {
  if (PG_NARGS() > 1) {
    *plaintext = plaintext_arg(fcinfo);
    return valid(*plaintext);
  }
  Uuid plaintexts[public_id::kMaxRingKeys];
  const std::size_t n = ring_plaintexts_arg(fcinfo, plaintexts);
  return public_id::first_valid(plaintexts, n, valid, plaintext) != 0;
}

}  // namespace

namespace {

Datum public_id_of_int(FunctionCallInfo fcinfo, IntWidth width) {
  const std::int64_t v = widened_int_arg(fcinfo, 0, width);
  if (v < 0) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("negative value %lld has no public id", static_cast<long long>(v)),
                    errdetail("Public ids are made of ids from 0 to 9223372036854775807.")));
  }
  return public_id_datum(fcinfo, public_id::plaintext_of_u64(static_cast<std::uint64_t>(v)));
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_public_id_bigint) { return public_id_of_int(fcinfo, IntWidth::bigint); }
IDGEN_SQL_FUNCTION(idgen_public_id_integer) { return public_id_of_int(fcinfo, IntWidth::integer); }
IDGEN_SQL_FUNCTION(idgen_public_id_smallint) {
  return public_id_of_int(fcinfo, IntWidth::smallint);
}

IDGEN_SQL_FUNCTION(idgen_public_id_numeric) {
  const u128 v = numeric_arg(fcinfo, 0, kDistributedIdDomain);
  return public_id_datum(fcinfo, public_id::plaintext_of_decimal28(v));
}

IDGEN_SQL_FUNCTION(idgen_public_id_uuid) {
  return public_id_datum(fcinfo, public_id::plaintext_of_uuid(uuid_arg(fcinfo, 0)));
}

IDGEN_SQL_FUNCTION(idgen_public_id_to_bigint) {
  Uuid p;
  std::int64_t v = 0;
  if (!valid_plaintext_arg(fcinfo, public_id::is_bigint_plaintext, &p)) PG_RETURN_NULL();
  if (!public_id::bigint_of_plaintext(p, &v)) PG_RETURN_NULL();
  PG_RETURN_INT64(v);
}

IDGEN_SQL_FUNCTION(idgen_public_id_to_numeric) {
  Uuid p;
  u128 v = 0;
  if (!valid_plaintext_arg(fcinfo, public_id::is_decimal28_plaintext, &p)) PG_RETURN_NULL();
  if (!public_id::decimal28_of_plaintext(p, &v)) PG_RETURN_NULL();
  return numeric_datum(v);
}

// With the configured keys: the current key only (any 16 bytes decode under every key).
IDGEN_SQL_FUNCTION(idgen_public_id_to_uuid) { return uuid_datum(plaintext_arg(fcinfo)); }

// idgen.public_id_to_uuids(id): the uuid behind id under each key of the ring, current first.
IDGEN_SQL_FUNCTION(idgen_public_id_to_uuids) {
  Uuid plaintexts[public_id::kMaxRingKeys];
  const std::size_t n = ring_plaintexts_arg(fcinfo, plaintexts);
  Datum elements[public_id::kMaxRingKeys];
  for (std::size_t i = 0; i < n; ++i) elements[i] = uuid_datum(plaintexts[i]);
  return PointerGetDatum(
      construct_array(elements, static_cast<int>(n), UUIDOID, 16, false, TYPALIGN_CHAR));
}

// idgen.public_id_key_number(id): the number of the first key of the ring (1: the current one)
// under which id is the public id of a DistributedId, a bigint among them; NULL when none is.
IDGEN_SQL_FUNCTION(idgen_public_id_key_number) {
  Uuid plaintexts[public_id::kMaxRingKeys];
  const std::size_t n = ring_plaintexts_arg(fcinfo, plaintexts);
  Uuid chosen;
  const std::size_t number =
      public_id::first_valid(plaintexts, n, public_id::is_decimal28_plaintext, &chosen);
  if (number == 0) PG_RETURN_NULL();
  PG_RETURN_INT32(static_cast<std::int32_t>(number));
}

// idgen.public_id_key_check() and idgen.public_id_key_check(key bytea): the configured key's, or
// that key's, check value.
IDGEN_SQL_FUNCTION(idgen_public_id_key_check) {
  const AesBlockCipher& cipher =
      PG_NARGS() > 0 ? explicit_public_id_cipher(fcinfo, 0) : configured_public_id_cipher();
  char kcv[public_id::kKeyCheckChars];
  if (!public_id::key_check_value(cipher, kcv)) report_aes_failure();
  return PointerGetDatum(cstring_to_text_with_len(kcv, sizeof kcv));
}

// idgen.public_id_key_checks(): the check value of each key of the ring, current first.
IDGEN_SQL_FUNCTION(idgen_public_id_key_checks) {
  (void)fcinfo;
  const std::size_t n = configured_public_id_ring();
  Datum elements[public_id::kMaxRingKeys];
  for (std::size_t i = 0; i < n; ++i) {
    char kcv[public_id::kKeyCheckChars];
    if (!public_id::key_check_value(configured_public_id_key(i), kcv)) report_aes_failure();
    elements[i] = PointerGetDatum(cstring_to_text_with_len(kcv, sizeof kcv));
  }
  return PointerGetDatum(
      construct_array(elements, static_cast<int>(n), TEXTOID, -1, false, TYPALIGN_INT));
}

}  // namespace idgen::pg
