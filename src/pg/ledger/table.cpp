// See ledger/table.hpp.
#include "pg/ledger/table.hpp"

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

namespace {

// The shapes of the ledger tables this backend has appended to, so the trigger reads the catalog
// (six column lookups, their types, the event_id type's oid) once per table instead of once per
// row. An entry serves the trigger function it was made for (the type oid comes from its schema)
// and is dropped when its table's relcache entry is invalidated: any ALTER TABLE, a rename, DROP.
struct CachedShape {
  Oid relid;
  Oid function;
  LedgerShape shape;
  bool valid;
};
IDGEN_STACK_SAFE(CachedShape);
constexpr int kCachedShapes = 16;
CachedShape shape_cache[kCachedShapes];
int shape_cache_next = 0;

LedgerShape read_ledger_shape(FunctionCallInfo fcinfo, Relation rel) {
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

}  // namespace

LedgerShape ledger_shape(FunctionCallInfo fcinfo, Relation rel) {
  const Oid relid = RelationGetRelid(rel);
  const Oid function = fcinfo->flinfo->fn_oid;
  for (const CachedShape& c : shape_cache) {
    if (c.valid && c.relid == relid && c.function == function) return c.shape;
  }
  const LedgerShape shape = read_ledger_shape(fcinfo, rel);  // may raise: nothing cached then
  shape_cache[shape_cache_next] = {relid, function, shape, true};
  shape_cache_next = (shape_cache_next + 1) % kCachedShapes;
  return shape;
}

void forget_ledger_shapes(Oid relid) noexcept {
  for (CachedShape& c : shape_cache) {
    if (relid == InvalidOid || c.relid == relid) c.valid = false;
  }
}

}  // namespace idgen::pg
