// The text signatures of the names overloaded for bigint, numeric and uuid (idgen.to_alphanumeric,
// idgen.to_hexadecimal, idgen.public_id). Without them an untyped literal or a driver's text
// parameter (node-postgres sends every parameter so) matched all the overloads equally and
// PostgreSQL answered "function ... is not unique" with a generic hint. The value cannot be read
// from its text either: '12345' encodes differently as a bigint and as a DistributedId. So these
// refuse it, naming the casts to write.
#include "pg/error_bridge.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/lsyscache.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

IDGEN_SQL_FUNCTION(idgen_untyped_id_argument) {
  const char* name = get_func_name(fcinfo->flinfo->fn_oid);
  ereport(ERROR,
          (errcode(ERRCODE_AMBIGUOUS_FUNCTION),
           errmsg("idgen.%s needs its argument typed as the id's type, not as text", name),
           errdetail("An untyped literal or a text parameter could be a bigint, a DistributedId "
                     "(numeric) or a uuid, and each gives a different result."),
           errhint("Cast the argument: idgen.%s($1::bigint), idgen.%s($1::numeric) for a "
                   "DistributedId, or idgen.%s($1::uuid).",
                   name, name, name)));
  pg_unreachable();
}

}  // namespace idgen::pg
