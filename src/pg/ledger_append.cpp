// The append path of ledger tables (spec event-id.md 5 and 13): the trigger function
// idgen.ledger_append(), BEFORE INSERT FOR EACH ROW on a table of the documented shape
//   ledger_id bigint, id idgen.event_id, event text, entities jsonb, meta jsonb, data jsonb
// (other columns are allowed), with an index on (ledger_id, id).
//
// For each new row, inside the inserting transaction:
//  - it takes a per-ledger lock held to the end of the transaction (an advisory lock on
//    (table oid, ledger id) with the otherwise unused sub-id 3, so it cannot meet the user's
//    pg_advisory_* locks), which serialises appenders of one ledger and no others;
//  - only then reads the ledger's latest event through a fresh snapshot, which includes rows
//    this transaction (even this statement) added before, as the table's owner and past any
//    row-level security policy. Under REPEATABLE READ or SERIALIZABLE
//    it also reads through the transaction's snapshot; if that tail is older, the append fails
//    with 40001 rather than chain onto a stale tail;
//  - a regular event without an id gets micros = max(latest + 1, now) and the checksum chained
//    to the latest event; with an id (importing a ledger), the id must chain exactly there;
//  - a genesis event (named as one) must start a new ledger: without an id it gets the genesis
//    of its meta and data at now, with one it must be that genesis. ledger_id is filled in.
// Errors: NULL event, entities, meta or data, or a regular event without ledger_id 23502; a
// ledger with no genesis in the table 23503; a genesis whose ledger exists 23505; an id that
// does not chain or a malformed genesis 23514; a table of another shape 42703/42804; a trigger
// fired any other way 39P01.
#include <cstring>

#include "core/clock.hpp"
#include "core/event_id.hpp"
#include "core/ledger_walk.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/event_hash.hpp"
#include "pg/event_id_datum.hpp"
#include "pg/postgres.hpp"

namespace eid = idgen::event_id;

namespace {

constexpr std::uint16_t kLedgerLockSubId = 3;  // pg_advisory_* use 1 and 2

enum Column { kLedgerId, kId, kEvent, kEntities, kMeta, kData, kColumns };
constexpr const char* kColumnNames[kColumns] = {"ledger_id", "id",   "event",
                                                "entities",  "meta", "data"};

struct Shape {
  int attnum[kColumns];
};

Oid event_id_type(FunctionCallInfo fcinfo) {
  const Oid schema = get_func_namespace(fcinfo->flinfo->fn_oid);
  return GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid, CStringGetDatum("event_id"),
                         ObjectIdGetDatum(schema));
}

Shape table_shape(FunctionCallInfo fcinfo, Relation rel) {
  const Oid types[kColumns] = {INT8OID, event_id_type(fcinfo), TEXTOID, JSONBOID, JSONBOID,
                               JSONBOID};
  const char* type_names[kColumns] = {"bigint", "idgen.event_id", "text",
                                      "jsonb",  "jsonb",          "jsonb"};
  Shape shape;
  TupleDesc desc = RelationGetDescr(rel);
  for (int c = 0; c < kColumns; ++c) {
    const int attnum = SPI_fnumber(desc, kColumnNames[c]);
    if (attnum <= 0) {
      ereport(ERROR, (errcode(ERRCODE_UNDEFINED_COLUMN),
                      errmsg("ledger table \"%s\" has no column \"%s\"",
                             RelationGetRelationName(rel), kColumnNames[c]),
                      errhint("idgen.ledger_append() needs the columns ledger_id bigint, "
                              "id idgen.event_id, event text, entities jsonb, meta jsonb and "
                              "data jsonb.")));
    }
    if (SPI_gettypeid(desc, attnum) != types[c]) {
      ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                      errmsg("column \"%s\" of ledger table \"%s\" must be of type %s",
                             kColumnNames[c], RelationGetRelationName(rel), type_names[c])));
    }
    shape.attnum[c] = attnum;
  }
  return shape;
}

// The plan of "latest event of ledger $1", kept per table. A plan revalidates itself when the
// table changes, but from its query text, so the entry also keeps the name it was built for and
// is rebuilt after a rename. A handful of ledger tables per database is the expected case.
struct CachedPlan {
  Oid relid;
  char* table;  // quoted qualified name, in TopMemoryContext
  SPIPlanPtr plan;
};
CachedPlan plan_cache[8];
int plan_cache_next = 0;

SPIPlanPtr latest_event_plan(Relation rel) {
  const Oid relid = RelationGetRelid(rel);
  const char* table = quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
                                                 RelationGetRelationName(rel));
  for (const CachedPlan& c : plan_cache) {
    if (c.relid == relid && c.plan != nullptr && std::strcmp(c.table, table) == 0) return c.plan;
  }
  const char* query =
      psprintf("SELECT id FROM %s WHERE ledger_id = $1 ORDER BY id DESC LIMIT 1", table);
  Oid arg_types[1] = {INT8OID};
  SPIPlanPtr plan = SPI_prepare(query, 1, arg_types);
  if (plan == nullptr) elog(ERROR, "could not prepare the ledger tail query: %s", query);
  SPI_keepplan(plan);
  CachedPlan& slot = plan_cache[plan_cache_next];
  plan_cache_next = (plan_cache_next + 1) % 8;
  if (slot.plan != nullptr) {
    SPI_freeplan(slot.plan);
    pfree(slot.table);
  }
  slot = {relid, MemoryContextStrdup(TopMemoryContext, table), plan};
  return plan;
}

// The latest event of the ledger through `snapshot` (InvalidSnapshot: the transaction's own);
// false when the ledger has none.
bool latest_event(SPIPlanPtr plan, std::uint32_t ledger, Snapshot snapshot, eid::EventId* out) {
  Datum args[1] = {Int64GetDatum(ledger)};
  const int rc =
      snapshot != InvalidSnapshot
          ? SPI_execute_snapshot(plan, args, nullptr, snapshot, InvalidSnapshot, false, false, 1)
          : SPI_execute_plan(plan, args, nullptr, false, 1);
  if (rc != SPI_OK_SELECT) elog(ERROR, "ledger tail query failed: %s", SPI_result_code_string(rc));
  if (SPI_processed == 0) return false;
  bool isnull = false;
  const Datum id = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
  if (isnull) return false;
  *out = *idgen::pg::event_id_ptr(id);
  return true;
}

void lock_ledger(Relation rel, std::uint32_t ledger) {
  LOCKTAG tag;
  SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, RelationGetRelid(rel), ledger, kLedgerLockSubId);
  (void)LockAcquire(&tag, ExclusiveLock, false, false);
}

// The tail every new event chains onto: read after the lock, and under a transaction snapshot
// refused when that snapshot cannot see it.
bool ledger_tail(Relation rel, std::uint32_t ledger, eid::EventId* tail) {
  // Read as the table's owner, bypassing row-level security (as foreign-key checks do): a
  // policy that hid the tail from the inserting role would fork the chain. Appenders need no
  // SELECT privilege either. An error restores the caller's identity with the transaction.
  Oid caller = InvalidOid;
  int security_context = 0;
  GetUserIdAndSecContext(&caller, &security_context);
  SetUserIdAndSecContext(rel->rd_rel->relowner,
                         security_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS);
  SPIPlanPtr plan = latest_event_plan(rel);
  const bool found = latest_event(plan, ledger, GetLatestSnapshot(), tail);
  if (IsolationUsesXactSnapshot()) {
    eid::EventId seen;
    const bool seen_found = latest_event(plan, ledger, InvalidSnapshot, &seen);
    if (seen_found != found || (found && eid::compare(seen, *tail) != 0)) {
      ereport(ERROR, (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
                      errmsg("could not serialize access due to a concurrent append to ledger %08x",
                             ledger),
                      errdetail("Another transaction appended to the ledger after this "
                                "transaction's snapshot was taken."),
                      errhint("Retry the transaction.")));
    }
  }
  SetUserIdAndSecContext(caller, security_context);
  return found;
}

const char* id_text(const eid::EventId& id) { return idgen::pg::event_id_cstring(id); }

[[noreturn]] void refuse_chain(const eid::EventId& given, const char* why,
                               const eid::EventId* expected) {
  ereport(ERROR,
          (errcode(ERRCODE_CHECK_VIOLATION),
           errmsg("event id %s does not chain onto its ledger", id_text(given)),
           expected != nullptr ? errdetail("%s; the expected id is %s.", why, id_text(*expected))
                               : errdetail("%s.", why)));
  pg_unreachable();
}

struct Row {
  Datum values[kColumns];
  bool nulls[kColumns];
};

std::uint64_t now_micros() {
  const std::int64_t now = idgen::clock::now_unix_us();
  return now < 0 ? 0 : static_cast<std::uint64_t>(now);
}

// A genesis row: the ledger id and the id. Returns the id to store.
eid::EventId append_genesis(Relation rel, const Row& row) {
  text* event = DatumGetTextPP(row.values[kEvent]);
  Jsonb* entities = DatumGetJsonbP(row.values[kEntities]);
  Jsonb* meta = DatumGetJsonbP(row.values[kMeta]);
  Jsonb* data = DatumGetJsonbP(row.values[kData]);
  const bool has_id = !row.nulls[kId];
  const eid::EventId given = has_id ? *idgen::pg::event_id_ptr(row.values[kId]) : eid::EventId{};
  const std::uint64_t micros = has_id ? eid::unpack(given).micros : now_micros();
  const eid::LedgerWalk::GenesisFacts facts =
      idgen::pg::genesis_facts(event, entities, meta, data, micros);
  if (!facts.entities_empty) {
    ereport(ERROR, (errcode(ERRCODE_CHECK_VIOLATION),
                    errmsg("a genesis event has the empty object as its entities")));
  }
  if (has_id && eid::compare(given, facts.recomputed.id) != 0) {
    refuse_chain(given, "It is not the genesis of its meta and data at its timestamp",
                 &facts.recomputed.id);
  }
  const std::uint32_t ledger = facts.recomputed.ledger;
  if (!row.nulls[kLedgerId] && DatumGetInt64(row.values[kLedgerId]) != ledger) {
    ereport(ERROR, (errcode(ERRCODE_CHECK_VIOLATION),
                    errmsg("ledger_id %lld does not match the genesis, whose ledger id is %u",
                           static_cast<long long>(DatumGetInt64(row.values[kLedgerId])), ledger)));
  }
  lock_ledger(rel, ledger);
  eid::EventId existing;
  if (ledger_tail(rel, ledger, &existing)) {
    ereport(ERROR,
            (errcode(ERRCODE_UNIQUE_VIOLATION),
             errmsg("ledger %08x already exists in \"%s\"", ledger, RelationGetRelationName(rel)),
             errdetail("Its latest event is %s.", id_text(existing))));
  }
  return facts.recomputed.id;
}

eid::EventId append_event(Relation rel, const Row& row) {
  const bool has_id = !row.nulls[kId];
  const eid::EventId given = has_id ? *idgen::pg::event_id_ptr(row.values[kId]) : eid::EventId{};
  // An imported event names its ledger in its id; ledger_id, when also given, must agree.
  std::int64_t ledger_arg = has_id ? eid::unpack(given).ledger : 0;
  if (!row.nulls[kLedgerId]) {
    ledger_arg = DatumGetInt64(row.values[kLedgerId]);
    if (has_id && ledger_arg != eid::unpack(given).ledger) {
      refuse_chain(given, "Its ledger is not the row's ledger_id", nullptr);
    }
  } else if (!has_id) {
    ereport(ERROR,
            (errcode(ERRCODE_NOT_NULL_VIOLATION), errmsg("a ledger event needs its ledger_id"),
             errhint("Create the ledger with idgen.ledger_create() and append with its id.")));
  }
  const std::uint32_t ledger = idgen::pg::checked_u32(ledger_arg, "ledger_id");
  lock_ledger(rel, ledger);
  eid::EventId tail;
  if (!ledger_tail(rel, ledger, &tail)) {
    ereport(ERROR, (errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
                    errmsg("ledger %08x has no genesis event in \"%s\"", ledger,
                           RelationGetRelationName(rel)),
                    errhint("Create the ledger with idgen.ledger_create().")));
  }
  const std::uint64_t tail_micros = eid::unpack(tail).micros;
  if (tail_micros >= eid::kMaxMicros) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("ledger %08x has reached the largest timestamp", ledger)));
  }
  std::uint64_t micros = 0;
  if (has_id) {
    eid::LedgerWalk walk;
    walk.start_after(tail);
    if (!walk.structure(given)) {
      refuse_chain(given,
                   psprintf("It fails the check \"%s\" after the latest event %s",
                            eid::fault_name(walk.fault()), id_text(tail)),
                   nullptr);
    }
    micros = eid::unpack(given).micros;
  } else {
    micros = std::max(tail_micros + 1, now_micros());
  }
  const std::uint32_t checksum = idgen::pg::regular_checksum(
      DatumGetTextPP(row.values[kEvent]), DatumGetJsonbP(row.values[kEntities]),
      DatumGetJsonbP(row.values[kMeta]), DatumGetJsonbP(row.values[kData]), micros, ledger, tail);
  const eid::EventId id = eid::pack({micros, checksum, ledger});
  if (has_id && eid::compare(given, id) != 0) {
    refuse_chain(given, "Its checksum does not match its content after the latest event", &id);
  }
  return id;
}

bool is_genesis_name(Datum event) {
  const idgen::pg::Utf8Bytes name = idgen::pg::utf8_bytes(DatumGetTextPP(event));
  return eid::is_genesis_name(name.data, name.len);
}

}  // namespace

IDGEN_SQL_FUNCTION(idgen_ledger_append) {
  if (!CALLED_AS_TRIGGER(fcinfo)) {
    ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                    errmsg("idgen.ledger_append() must be called as a trigger")));
  }
  TriggerData* trigger = reinterpret_cast<TriggerData*>(fcinfo->context);
  if (!TRIGGER_FIRED_BEFORE(trigger->tg_event) || !TRIGGER_FIRED_FOR_ROW(trigger->tg_event) ||
      !TRIGGER_FIRED_BY_INSERT(trigger->tg_event)) {
    ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                    errmsg("idgen.ledger_append() must be a BEFORE INSERT FOR EACH ROW trigger")));
  }
  Relation rel = trigger->tg_relation;
  HeapTuple tuple = trigger->tg_trigtuple;
  const Shape shape = table_shape(fcinfo, rel);
  Row row = {};
  for (int c = 0; c < kColumns; ++c) {
    row.values[c] = SPI_getbinval(tuple, RelationGetDescr(rel), shape.attnum[c], &row.nulls[c]);
  }
  for (int c : {kEvent, kEntities, kMeta, kData}) {
    if (row.nulls[c]) {
      ereport(ERROR,
              (errcode(ERRCODE_NOT_NULL_VIOLATION),
               errmsg("a ledger event needs its %s; NULL is not an empty value", kColumnNames[c])));
    }
  }
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  const eid::EventId id =
      is_genesis_name(row.values[kEvent]) ? append_genesis(rel, row) : append_event(rel, row);
  int columns[2] = {shape.attnum[kLedgerId], shape.attnum[kId]};
  Datum values[2] = {Int64GetDatum(eid::unpack(id).ledger), idgen::pg::event_id_datum(id)};
  char nulls[2] = {' ', ' '};
  HeapTuple result = SPI_modifytuple(rel, tuple, 2, columns, values, nulls);
  if (result == nullptr)
    elog(ERROR, "SPI_modifytuple failed: %s", SPI_result_code_string(SPI_result));
  SPI_finish();
  return PointerGetDatum(result);
}

// idgen.ledger_create(events regclass, name text, description text) -> bigint: computes the
// genesis at idgen's clock (so idgen.fixed_clock pins it) and inserts it with its ledger_id and id
// already set. The row therefore carries its ledger id before any routing happens: through a
// partitioned or sharded parent it lands where its ledger lives, and the table's trigger checks
// it as it checks any imported genesis. NULL arguments are 22004.
IDGEN_SQL_FUNCTION(idgen_ledger_create) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2)) {
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("idgen.ledger_create needs a table, a name and a description"),
                    errdetail("NULL is not an empty value.")));
  }
  const Oid relid = PG_GETARG_OID(0);
  text* name = PG_GETARG_TEXT_PP(1);
  text* description = PG_GETARG_TEXT_PP(2);
  const char* relname = get_rel_name(relid);
  if (relname == nullptr) {
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE),
                    errmsg("relation with OID %u does not exist", relid)));
  }
  const char* table =
      quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), relname);
  const idgen::pg::Utf8Bytes name_utf8 = idgen::pg::utf8_bytes(name);
  const idgen::pg::Utf8Bytes description_utf8 = idgen::pg::utf8_bytes(description);
  const eid::Genesis g = eid::genesis(reinterpret_cast<const char*>(name_utf8.data), name_utf8.len,
                                      reinterpret_cast<const char*>(description_utf8.data),
                                      description_utf8.len, now_micros());
  // The name and description go in as the caller's text; jsonb_build_object stores them as the
  // genesis hashed them (jsonb prints "name" before "description").
  const char* query = psprintf(
      "INSERT INTO %s (ledger_id, id, event, entities, meta, data) "
      "VALUES ($1, $2, convert_from('\\xf09f9392f09283bb'::bytea, 'UTF8'), '{}', "
      "'{\"notes\": \"Ledger established by Evently\"}', "
      "jsonb_build_object('name', $3::text, 'description', $4::text))",
      table);
  Oid types[4] = {INT8OID, event_id_type(fcinfo), TEXTOID, TEXTOID};
  Datum values[4] = {Int64GetDatum(g.ledger), idgen::pg::event_id_datum(g.id),
                     PointerGetDatum(name), PointerGetDatum(description)};
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  const int rc = SPI_execute_with_args(query, 4, types, values, nullptr, false, 0);
  if (rc != SPI_OK_INSERT)
    elog(ERROR, "ledger genesis insert failed: %s", SPI_result_code_string(rc));
  SPI_finish();
  PG_RETURN_INT64(g.ledger);
}
