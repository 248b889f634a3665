// The append trigger of ledger tables, idgen.ledger_append(): BEFORE INSERT FOR EACH ROW on a
// table of the shape in ledger/table.hpp, with an index on (ledger_id, id).
//
// For each new row, inside the inserting transaction:
//  - a role that may not see the ledger (privileges, row-level security) is refused at once, before
//    any lock, with one error that says nothing about the ledger, not even whether it exists;
//  - it takes the ledger's lock (ledger/tail.hpp), which serialises appenders of one ledger and
//    no others, and only then reads the ledger's latest event as the table's owner;
//  - a role that could not read that event itself is refused with the same error;
//  - a regular event without an id gets micros = max(latest + 1, now) and the checksum chained to
//    the latest event; with an id (importing a ledger), the id must chain exactly there;
//  - a genesis event (named as one) must start a new ledger: without an id it gets the genesis
//    of its meta and data at now, with one it must be that genesis. ledger_id is filled in;
//  - no event may lead the real clock by more than idgen.ledger_max_lead (ledger/lead_guc.hpp).
// Errors: NULL event, entities, meta or data, or a regular event without ledger_id 23502; a
// ledger the role may not see, or (for a role that may) with no genesis in the table, 23503; a
// genesis whose ledger exists 23505; an id that does not chain, a malformed genesis or a
// timestamp too far ahead 23514; a table of another shape 42703/42804; a trigger fired any other
// way 39P01; a stale snapshot under REPEATABLE READ or SERIALIZABLE 40001.
#include "core/clock.hpp"
#include "core/event_id.hpp"
#include "core/ledger_walk.hpp"
#include "core/stack_safe.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/ledger/event_hash.hpp"
#include "pg/ledger/event_id_datum.hpp"
#include "pg/ledger/lead_guc.hpp"
#include "pg/ledger/table.hpp"
#include "pg/ledger/tail.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "executor/spi.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

const char* id_text(const event_id::EventId& id) { return event_id_cstring(id); }

// The one refusal a role gets for a ledger whose latest event it may not read: the same whether
// the ledger exists or not, and before anything about the row is compared with the ledger.
[[noreturn]] void refuse_unseen(Relation rel, std::uint32_t ledger) {
  ereport(ERROR,
          (errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
           errmsg("cannot append to ledger %08x in \"%s\"", ledger, RelationGetRelationName(rel)),
           errdetail("The ledger does not exist, or this role may not read its latest event."),
           errhint("A role appends to a ledger whose latest event it may read: it needs SELECT on "
                   "the table or on its ledger_id and id columns, and row-level security policies "
                   "that show it that event.")));
  pg_unreachable();
}

[[noreturn]] void refuse_chain(const event_id::EventId& given, const char* why,
                               const event_id::EventId* expected) {
  ereport(ERROR,
          (errcode(ERRCODE_CHECK_VIOLATION),
           errmsg("event id %s does not chain onto its ledger", id_text(given)),
           expected != nullptr ? errdetail("%s; the expected id is %s.", why, id_text(*expected))
                               : errdetail("%s.", why)));
  pg_unreachable();
}

// A genesis for a ledger that has events: the role's refusal when it may not see them, else 23505.
void refuse_existing(Relation rel, std::uint32_t ledger, const LedgerTail& tail) {
  if (!tail.found) return;
  if (!tail.caller_sees) refuse_unseen(rel, ledger);
  ereport(ERROR,
          (errcode(ERRCODE_UNIQUE_VIOLATION),
           errmsg("ledger %08x already exists in \"%s\"", ledger, RelationGetRelationName(rel)),
           errdetail("Its latest event is %s.", id_text(tail.latest))));
}

struct Row {
  Datum values[kLedgerColumns];
  bool nulls[kLedgerColumns];
};
IDGEN_STACK_SAFE(Row);

std::uint64_t now_micros() {
  const std::int64_t now = clock::now_unix_us();
  return now < 0 ? 0 : static_cast<std::uint64_t>(now);
}

// A genesis row: the ledger id and the id. Returns the id to store.
event_id::EventId append_genesis(Relation rel, const Row& row) {
  text* event = DatumGetTextPP(row.values[kEvent]);
  Jsonb* entities = DatumGetJsonbP(row.values[kEntities]);
  Jsonb* meta = DatumGetJsonbP(row.values[kMeta]);
  Jsonb* data = DatumGetJsonbP(row.values[kData]);
  const bool has_id = !row.nulls[kId];
  const event_id::EventId given = has_id ? *event_id_ptr(row.values[kId]) : event_id::EventId{};
  const std::uint64_t micros = has_id ? event_id::unpack(given).micros : now_micros();
  const event_id::LedgerWalk::GenesisFacts facts =
      genesis_facts(event, entities, meta, data, micros);
  if (!facts.entities_empty) {
    ereport(ERROR, (errcode(ERRCODE_CHECK_VIOLATION),
                    errmsg("a genesis event has the empty object as its entities")));
  }
  if (has_id && event_id::compare(given, facts.recomputed.id) != 0) {
    refuse_chain(given, "It is not the genesis of its meta and data at its timestamp",
                 &facts.recomputed.id);
  }
  const std::uint32_t ledger = facts.recomputed.ledger;
  if (!row.nulls[kLedgerId] && DatumGetInt64(row.values[kLedgerId]) != ledger) {
    ereport(ERROR, (errcode(ERRCODE_CHECK_VIOLATION),
                    errmsg("ledger_id %lld does not match the genesis, whose ledger id is %u",
                           static_cast<long long>(DatumGetInt64(row.values[kLedgerId])), ledger)));
  }
  require_event_lead(micros, nullptr, ledger);
  // A ledger that exists is refused before its lock is taken, so that a role creating a ledger
  // hidden from it does not wait for that ledger's appenders (and learn that there are some).
  const CallerAccess access = caller_access(rel);
  refuse_existing(rel, ledger, read_ledger_tail(rel, ledger, access));
  lock_ledger(rel, ledger);
  const LedgerTail tail = read_ledger_tail(rel, ledger, access);
  refuse_existing(rel, ledger, tail);
  require_tail_in_snapshot(rel, ledger, tail);
  return facts.recomputed.id;
}

event_id::EventId append_event(Relation rel, const Row& row) {
  const bool has_id = !row.nulls[kId];
  const event_id::EventId given = has_id ? *event_id_ptr(row.values[kId]) : event_id::EventId{};
  // An imported event names its ledger in its id; ledger_id, when also given, must agree.
  std::int64_t ledger_arg = has_id ? event_id::unpack(given).ledger : 0;
  if (!row.nulls[kLedgerId]) {
    ledger_arg = DatumGetInt64(row.values[kLedgerId]);
    if (has_id && ledger_arg != event_id::unpack(given).ledger) {
      refuse_chain(given, "Its ledger is not the row's ledger_id", nullptr);
    }
  } else if (!has_id) {
    ereport(ERROR,
            (errcode(ERRCODE_NOT_NULL_VIOLATION), errmsg("a ledger event needs its ledger_id"),
             errhint("Create the ledger with idgen.ledger_create() and append with its id.")));
  }
  const std::uint32_t ledger = checked_u32(ledger_arg, "ledger_id");
  // A role that may not see the ledger is refused before its lock is taken: at once, as for a
  // ledger that does not exist, however busy the ledger is.
  const CallerAccess access = caller_access(rel);
  const CallerView view = caller_view(rel, ledger, access);
  if (!view.sees) refuse_unseen(rel, ledger);
  lock_ledger(rel, ledger);
  const LedgerTail tail = read_ledger_tail(rel, ledger, access, &view);
  if (!tail.caller_sees) refuse_unseen(rel, ledger);
  if (!tail.found) {
    ereport(ERROR, (errcode(ERRCODE_FOREIGN_KEY_VIOLATION),
                    errmsg("ledger %08x has no genesis event in \"%s\"", ledger,
                           RelationGetRelationName(rel)),
                    errhint("Create the ledger with idgen.ledger_create().")));
  }
  require_tail_in_snapshot(rel, ledger, tail);
  const std::uint64_t tail_micros = event_id::unpack(tail.latest).micros;
  if (tail_micros >= event_id::kMaxMicros) {
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("ledger %08x has reached the largest timestamp", ledger)));
  }
  std::uint64_t micros = 0;
  if (has_id) {
    event_id::LedgerWalk walk;
    walk.start_after(tail.latest);
    if (!walk.structure(given)) {
      refuse_chain(given,
                   psprintf("It fails the check \"%s\" after the latest event %s",
                            event_id::fault_name(walk.fault()), id_text(tail.latest)),
                   nullptr);
    }
    micros = event_id::unpack(given).micros;
  } else {
    micros = std::max(tail_micros + 1, now_micros());
  }
  require_event_lead(micros, &tail.latest, ledger);
  const std::uint32_t checksum =
      regular_checksum(DatumGetTextPP(row.values[kEvent]), DatumGetJsonbP(row.values[kEntities]),
                       DatumGetJsonbP(row.values[kMeta]), DatumGetJsonbP(row.values[kData]), micros,
                       ledger, tail.latest);
  const event_id::EventId id = event_id::pack({micros, checksum, ledger});
  if (has_id && event_id::compare(given, id) != 0) {
    refuse_chain(given, "Its checksum does not match its content after the latest event", &id);
  }
  return id;
}

bool is_genesis_name(Datum event) {
  const Utf8Bytes name = utf8_bytes(DatumGetTextPP(event));
  return event_id::is_genesis_name(name.data, name.len);
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
  const LedgerShape shape = ledger_shape(fcinfo, rel);
  Row row = {};
  for (int c = 0; c < kLedgerColumns; ++c) {
    row.values[c] = SPI_getbinval(tuple, RelationGetDescr(rel), shape.attnum[c], &row.nulls[c]);
  }
  for (int c : {kEvent, kEntities, kMeta, kData}) {
    if (row.nulls[c]) {
      ereport(ERROR, (errcode(ERRCODE_NOT_NULL_VIOLATION),
                      errmsg("a ledger event needs its %s; NULL is not an empty value",
                             kLedgerColumnNames[c])));
    }
  }
  if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
  const event_id::EventId id =
      is_genesis_name(row.values[kEvent]) ? append_genesis(rel, row) : append_event(rel, row);
  int columns[2] = {shape.attnum[kLedgerId], shape.attnum[kId]};
  Datum values[2] = {Int64GetDatum(event_id::unpack(id).ledger), event_id_datum(id)};
  char nulls[2] = {' ', ' '};
  HeapTuple result = SPI_modifytuple(rel, tuple, 2, columns, values, nulls);
  if (result == nullptr)
    elog(ERROR, "SPI_modifytuple failed: %s", SPI_result_code_string(SPI_result));
  SPI_finish();
  return PointerGetDatum(result);
}

}  // namespace idgen::pg
