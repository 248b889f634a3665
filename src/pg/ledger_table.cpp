// See ledger_table.hpp.
#include "pg/ledger_table.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "executor/spi.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

const char* const kLedgerColumnNames[kLedgerColumns] = {"ledger_id", "id",   "event",
                                                        "entities",  "meta", "data"};

Oid event_id_type_oid(FunctionCallInfo fcinfo) {
  const Oid schema = get_func_namespace(fcinfo->flinfo->fn_oid);
  return GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("event_id"),
                         ObjectIdGetDatum(schema));
}

LedgerShape ledger_shape(FunctionCallInfo fcinfo, Relation rel) {
  const Oid types[kLedgerColumns] = {
      INT8OID, event_id_type_oid(fcinfo), TEXTOID, JSONBOID, JSONBOID, JSONBOID};
  const char* const type_names[kLedgerColumns] = {"bigint", "idgen.event_id", "text",
                                                  "jsonb",  "jsonb",          "jsonb"};
  LedgerShape shape;
  TupleDesc desc = RelationGetDescr(rel);
  for (int c = 0; c < kLedgerColumns; ++c) {
    const int attnum = SPI_fnumber(desc, kLedgerColumnNames[c]);
    if (attnum <= 0) {
      ereport(ERROR, (errcode(ERRCODE_UNDEFINED_COLUMN),
                      errmsg("ledger table \"%s\" has no column \"%s\"",
                             RelationGetRelationName(rel), kLedgerColumnNames[c]),
                      errhint("idgen.ledger_append() needs the columns ledger_id bigint, "
                              "id idgen.event_id, event text, entities jsonb, meta jsonb and "
                              "data jsonb.")));
    }
    if (SPI_gettypeid(desc, attnum) != types[c]) {
      ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                      errmsg("column \"%s\" of ledger table \"%s\" must be of type %s",
                             kLedgerColumnNames[c], RelationGetRelationName(rel), type_names[c])));
    }
    shape.attnum[c] = attnum;
  }
  return shape;
}

}  // namespace idgen::pg
