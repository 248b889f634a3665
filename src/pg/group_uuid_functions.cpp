// SQL functions of group-key uuids (docs/group-uuid.md): generation from a group id or a group
// name, extraction of key and group, the friendly key text, and the post's CRC-12.
//
// Errors: a key outside 0 .. 2^48 - 1 or a group outside 0 .. 4095 is 22003 (the post's code
// silently drops high key bits; idgen refuses); a version other than 8 or 6 is 22023; a uuid that
// is not a version 6/8 RFC-variant uuid is 22023 naming what was found; malformed key text 22P02.
#include <cstdint>

#include "core/group_uuid.hpp"
#include "core/hex.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/group_registry.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/builtins.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

Datum group_uuid_datum(int group, FunctionCallInfo fcinfo) {
  const std::int64_t key = int64_arg(fcinfo, 1, "key");
  const std::int32_t version = int32_arg(fcinfo, 2, "version");
  if (key < 0 || static_cast<std::uint64_t>(key) > group_uuid::kMaxKey) {
    ereport(ERROR,
            (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
             errmsg("key %lld is out of range for a group-key uuid", static_cast<long long>(key)),
             errdetail("A key is from 0 to 281474976710655 (2^48 - 1).")));
  }
  if (group < 0 || group > group_uuid::kMaxGroup) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("group id %d is out of range", group),
                    errdetail("A group id is from 0 to 4095.")));
  }
  if (!group_uuid::is_generated_version(version)) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("version %d is not supported for group-key uuids", version),
                    errhint("Use 8 (the default), or 6 for the original post's layout.")));
  }
  std::uint8_t random[8];
  random_bytes(random, sizeof random);
  return uuid_datum(group_uuid::make(static_cast<std::uint64_t>(key), group, version, random));
}

// The parts of uuid argument 0, which must be a group-key uuid.
group_uuid::Parts group_uuid_arg(FunctionCallInfo fcinfo) {
  const Uuid id = uuid_arg(fcinfo, 0);
  const group_uuid::Parts p = group_uuid::parts(id);
  if (p.shape != group_uuid::Shape::ok) {
    const char* shown = DatumGetCString(DirectFunctionCall1(uuid_out, PG_GETARG_DATUM(0)));
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s is not a group-key uuid", shown),
             p.shape == group_uuid::Shape::bad_version
                 ? errdetail("Its version is %d; group-key uuids have version 8 or 6.", p.version)
                 : errdetail("Its variant digit is %x; group-key uuids have the RFC variant (8, "
                             "9, a or b).",
                             id.bytes[8] >> 4)));
  }
  return p;
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_group_uuid_by_id) {
  return group_uuid_datum(int32_arg(fcinfo, 0, "group_id"), fcinfo);
}

IDGEN_SQL_FUNCTION(idgen_group_uuid_by_name) {
  require_arg(fcinfo, 0, "group_name");
  return group_uuid_datum(group_id_of_name(PG_GETARG_TEXT_PP(0)), fcinfo);
}

IDGEN_SQL_FUNCTION(idgen_group_uuid_key) {
  PG_RETURN_INT64(static_cast<std::int64_t>(group_uuid_arg(fcinfo).key));
}

IDGEN_SQL_FUNCTION(idgen_group_uuid_group) { PG_RETURN_INT32(group_uuid_arg(fcinfo).group); }

IDGEN_SQL_FUNCTION(idgen_group_name) {
  bool is_null = true;
  const Datum name = registered_group_name(group_uuid_arg(fcinfo).group, &is_null);
  if (is_null) PG_RETURN_NULL();
  return name;
}

IDGEN_SQL_FUNCTION(idgen_group_target) {
  bool is_null = true;
  const Datum target = registered_group_target(group_uuid_arg(fcinfo).group, &is_null);
  if (is_null) PG_RETURN_NULL();
  return target;
}

IDGEN_SQL_FUNCTION(idgen_group_key_text) {
  char out[hex::kU64Chars];
  const std::size_t n = hex::encode_u64_minimal(group_uuid_arg(fcinfo).key, out);
  PG_RETURN_TEXT_P(cstring_to_text_with_len(out, static_cast<int>(n)));
}

IDGEN_SQL_FUNCTION(idgen_group_key_from_text) {
  text* arg = PG_GETARG_TEXT_PP(0);
  const char* data = VARDATA_ANY(arg);
  const int len = static_cast<int>(VARSIZE_ANY_EXHDR(arg));
  std::uint64_t key = 0;
  const DecodeResult r =
      hex::decode_u64_any_width(data, static_cast<std::size_t>(len), group_uuid::kMaxKey, &key);
  if (r.status == DecodeStatus::out_of_range) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("group key out of range: \"%s\"", clip_for_message(data, len)),
                    errdetail("A group key is at most ffffffffffff (2^48 - 1).")));
  }
  if (r.status != DecodeStatus::ok) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                    errmsg("invalid group key: \"%s\"", clip_for_message(data, len)),
                    errdetail("A group key is hexadecimal digits (0-9, a-f, any case), leading "
                              "zeros allowed, nothing else.")));
  }
  PG_RETURN_INT64(static_cast<std::int64_t>(key));
}

IDGEN_SQL_FUNCTION(idgen_crc12) { PG_RETURN_INT32(crc12_of_name(PG_GETARG_TEXT_PP(0))); }

// idgen.register_group(name, group_id, target): checks what only the caller's identity tells (it
// owns the target table), then registers with the registry owner's rights (group_registry.hpp).
IDGEN_SQL_FUNCTION(idgen_register_group) { return register_group(fcinfo); }

}  // namespace idgen::pg
