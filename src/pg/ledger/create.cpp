// idgen.ledger_create(events regclass, name text, description text) -> bigint: computes the
// genesis at idgen's clock (so idgen.fixed_clock pins it) and inserts it with its ledger_id and id
// already set. The row therefore carries its ledger id before any routing happens: through a
// partitioned or sharded parent it lands where its ledger lives, and the table's trigger checks
// it as it checks any imported genesis. NULL arguments are 22004.
//
// The INSERT runs as the caller (who needs INSERT on the table). Every value is computed here and
// bound as a typed parameter, so the statement names nothing but the table and its columns, and
// it runs with the search_path pinned (pinned_sql.hpp): no function or operator of the caller's
// path can take part.
#include <cstring>

#include "core/clock.hpp"
#include "core/event_id.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/ledger/event_id_datum.hpp"
#include "pg/ledger/table.hpp"
#include "pg/pinned_sql.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/relation.h"
#include "executor/spi.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

// Runs the genesis INSERT. An error raised inside it (the table's trigger refusing a ledger that
// exists, a constraint, a trigger of the user's) is raised again without the context line SPI
// adds for the statement: the INSERT is idgen's own, and quoting it tells the caller nothing they
// wrote. Context lines from inside the statement (a user's trigger) are kept.
int execute_as_own_statement(const char* query, Oid* types, Datum* values) {
  volatile int rc = 0;
  MemoryContext caller = CurrentMemoryContext;
  PG_TRY();
  { rc = SPI_execute_with_args(query, 6, types, values, nullptr, false, 0); }
  PG_CATCH();
  {
    MemoryContextSwitchTo(caller);
    ErrorData* error = CopyErrorData();
    FlushErrorState();
    if (error->context != nullptr) {
      // The statement's line is the outermost, hence the last one, and quotes the query.
      char* last_line = strrchr(error->context, '\n');
      char* line = last_line != nullptr ? last_line + 1 : error->context;
      if (strstr(line, query) != nullptr) {
        if (last_line != nullptr) {
          *last_line = '\0';
        } else {
          error->context = nullptr;
        }
      }
    }
    ReThrowError(error);
  }
  PG_END_TRY();
  return rc;
}

// The genesis row fills only the six ledger columns. Another column that is NOT NULL with no
// default would fail the INSERT, and its error would show the internal statement; say it first.
void refuse_unfillable_columns(Relation rel, const LedgerShape& shape) {
  TupleDesc desc = RelationGetDescr(rel);
  for (int i = 0; i < desc->natts; ++i) {
    const Form_pg_attribute att = TupleDescAttr(desc, i);
    if (att->attisdropped || !att->attnotnull || att->atthasdef || att->attidentity != '\0' ||
        att->attgenerated != '\0') {
      continue;
    }
    bool ledger_column = false;
    for (int c = 0; c < kLedgerColumns; ++c) {
      ledger_column = ledger_column || shape.attnum[c] == att->attnum;
    }
    if (ledger_column) continue;
    ereport(ERROR, (errcode(ERRCODE_NOT_NULL_VIOLATION),
                    errmsg("column \"%s\" of ledger table \"%s\" is NOT NULL without a default",
                           NameStr(att->attname), RelationGetRelationName(rel)),
                    errdetail("The genesis event that idgen.ledger_create() inserts fills only "
                              "ledger_id, id, event, entities, meta and data."),
                    errhint("Give the column a default, or allow NULL in it.")));
  }
}

Datum jsonb_datum(const char* json) { return DirectFunctionCall1(jsonb_in, CStringGetDatum(json)); }

// The genesis's data as jsonb_build_object('name', name, 'description', description) makes it
// (jsonb prints "name" before "description" either way).
Datum genesis_data(text* name, text* description) {
  StringInfoData json;
  initStringInfo(&json);
  appendStringInfoString(&json, "{\"name\": ");
  escape_json(&json, text_to_cstring(name));
  appendStringInfoString(&json, ", \"description\": ");
  escape_json(&json, text_to_cstring(description));
  appendStringInfoChar(&json, '}');
  return jsonb_datum(json.data);
}

// The genesis event's name, 📒𒃻, in the database encoding (an error where it has no such
// characters, as a ledger's genesis cannot be stored there).
Datum genesis_name() {
  static const char kUtf8[] = "\xf0\x9f\x93\x92\xf0\x92\x83\xbb";
  const char* local = pg_any_to_server(kUtf8, sizeof kUtf8 - 1, PG_UTF8);
  return PointerGetDatum(cstring_to_text(local));
}

// The table's quoted, qualified name, after checking that it exists and has a ledger's columns
// (so a table of another shape is refused by name, before any INSERT).
const char* ledger_table_name(FunctionCallInfo fcinfo, Oid relid) {
  Relation rel = try_relation_open(relid, AccessShareLock);
  if (rel == nullptr) {
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE),
                    errmsg("relation with OID %u does not exist", relid)));
  }
  const LedgerShape shape = ledger_shape(fcinfo, rel);
  refuse_unfillable_columns(rel, shape);
  const char* table = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
                                                 RelationGetRelationName(rel));
  relation_close(rel, AccessShareLock);
  return table;
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_ledger_create) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2)) {
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("idgen.ledger_create needs a table, a name and a description"),
                    errdetail("NULL is not an empty value.")));
  }
  const Oid relid = PG_GETARG_OID(0);
  text* name = PG_GETARG_TEXT_PP(1);
  text* description = PG_GETARG_TEXT_PP(2);
  const char* table = ledger_table_name(fcinfo, relid);
  const Utf8Bytes name_utf8 = utf8_bytes(name);
  const Utf8Bytes description_utf8 = utf8_bytes(description);
  const std::int64_t now = clock::now_unix_us();
  const event_id::Genesis g =
      event_id::genesis(reinterpret_cast<const char*>(name_utf8.data), name_utf8.len,
                        reinterpret_cast<const char*>(description_utf8.data), description_utf8.len,
                        now < 0 ? 0 : now);
  const char* query = psprintf(
      "INSERT INTO %s (ledger_id, id, event, entities, meta, data) "
      "VALUES ($1, $2, $3, $4, $5, $6)",
      table);
  Oid types[6] = {INT8OID, event_id_type_oid(fcinfo), TEXTOID, JSONBOID, JSONBOID, JSONBOID};
  Datum values[6] = {Int64GetDatum(g.ledger),
                     event_id_datum(g.id),
                     genesis_name(),
                     jsonb_datum("{}"),
                     jsonb_datum("{\"notes\": \"Ledger established by Evently\"}"),
                     genesis_data(name, description)};
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  const int settings = pin_sql_settings();
  const int rc = execute_as_own_statement(query, types, values);
  if (rc != SPI_OK_INSERT)
    elog(ERROR, "ledger genesis insert failed: %s", SPI_result_code_string(rc));
  unpin_sql_settings(settings);
  SPI_finish();
  PG_RETURN_INT64(g.ledger);
}

}  // namespace idgen::pg
