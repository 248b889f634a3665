// See owner_rights.hpp.
#include "pg/owner_rights.hpp"

#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/htup_details.h"
#include "catalog/pg_class.h"
#include "utils/syscache.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

Oid relation_owner(Oid relid) {
  HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
  if (!HeapTupleIsValid(tuple)) elog(ERROR, "cache lookup failed for relation %u", relid);
  const Oid owner = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->relowner;
  ReleaseSysCache(tuple);
  return owner;
}

}  // namespace idgen::pg
