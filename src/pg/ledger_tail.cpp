// See ledger_tail.hpp.
#include "pg/ledger_tail.hpp"

#include "core/stack_safe.hpp"
#include "pg/event_id_datum.hpp"
#include "pg/pinned_sql.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "catalog/partition.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/lock.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

constexpr std::uint16_t kLedgerLockSubId = 3;  // pg_advisory_* use 1 and 2

// Who a tail query runs as. The two never share a plan: a plan made as the owner past row-level
// security must not serve the caller, even when the caller is the owner under FORCE ROW LEVEL
// SECURITY (the plan cache replans on a change of role, not of that flag).
enum class Reader { owner, caller };

// "Latest event of ledger $1" plans, kept per (table, reader). A plan revalidates itself when the
// table changes, but from its query text, which names the table: so an entry is marked stale when
// the table's relcache entry is invalidated (a rename, ALTER TABLE ... SET SCHEMA, DROP) or any
// schema changes (a schema rename), and is rebuilt on the next use. Lookups then cost no catalog
// access. Stale plans are freed only when their slot is reused, never from the invalidation
// callback, which may run while a plan executes. The owner's plan reads only the table itself
// (ONLY: the chain is the table's own); the caller's plan reads the table it checks the caller
// against, the partitioned root for a partition, under the caller's row-level security. A handful
// of ledger tables per database is the expected case.
struct CachedPlan {
  Oid relid;
  Reader reader;
  bool stale;
  SPIPlanPtr plan;
};
IDGEN_STACK_SAFE(CachedPlan);
constexpr int kCachedPlans = 16;
CachedPlan plan_cache[kCachedPlans];
int plan_cache_next = 0;

// The slot for a new plan: a stale or empty one if there is one, else the next in turn.
CachedPlan& free_slot() {
  for (CachedPlan& c : plan_cache) {
    if (c.plan == nullptr || c.stale) return c;
  }
  CachedPlan& slot = plan_cache[plan_cache_next];
  plan_cache_next = (plan_cache_next + 1) % kCachedPlans;
  return slot;
}

SPIPlanPtr latest_event_plan(Oid relid, Reader reader) {
  for (const CachedPlan& c : plan_cache) {
    if (c.plan != nullptr && !c.stale && c.relid == relid && c.reader == reader) return c.plan;
  }
  // Every name qualified, and the search_path pinned by the caller (pinned_sql.hpp): the owner's
  // plan runs with the owner's rights.
  const char* table =
      quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid));
  const char* query = psprintf(
      "SELECT t.id FROM %s%s t WHERE t.ledger_id OPERATOR(pg_catalog.=) $1 "
      "ORDER BY t.id DESC LIMIT 1",
      get_rel_relkind(relid) == RELKIND_PARTITIONED_TABLE ? "" : "ONLY ", table);
  Oid arg_types[1] = {INT8OID};
  SPIPlanPtr plan = SPI_prepare(query, 1, arg_types);
  if (plan == nullptr) elog(ERROR, "could not prepare the ledger tail query: %s", query);
  SPI_keepplan(plan);
  CachedPlan& slot = free_slot();
  if (slot.plan != nullptr) SPI_freeplan(slot.plan);
  slot = {relid, reader, false, plan};
  return plan;
}

// The latest event of the ledger by plan through snapshot (InvalidSnapshot: the transaction's);
// false when there is none.
bool latest_event(SPIPlanPtr plan, std::uint32_t ledger, Snapshot snapshot,
                  event_id::EventId* out) {
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
  *out = *event_id_ptr(id);
  return true;
}

// The latest event as the table's owner, bypassing row-level security: a policy that hid the tail
// from the inserting role would fork the chain. An error restores the caller's identity with the
// (sub)transaction it aborts.
bool latest_event_as_owner(Relation rel, std::uint32_t ledger, Snapshot snapshot,
                           event_id::EventId* out) {
  Oid caller = InvalidOid;
  int security_context = 0;
  GetUserIdAndSecContext(&caller, &security_context);
  SetUserIdAndSecContext(rel->rd_rel->relowner,
                         security_context | SECURITY_LOCAL_USERID_CHANGE | SECURITY_NOFORCE_RLS);
  const bool found =
      latest_event(latest_event_plan(RelationGetRelid(rel), Reader::owner), ledger, snapshot, out);
  SetUserIdAndSecContext(caller, security_context);
  return found;
}

// The table whose rights and policies decide what the caller sees: a partition's rows are
// reached through its partitioned root, which holds the grants and policies.
Oid table_seen_by_caller(Relation rel) {
  if (!rel->rd_rel->relispartition) return RelationGetRelid(rel);
  List* ancestors = get_partition_ancestors(RelationGetRelid(rel));
  const Oid root = llast_oid(ancestors);
  list_free(ancestors);
  return root;
}

bool may_select(Oid relid, Oid user) {
  if (pg_class_aclcheck(relid, user, ACL_SELECT) == ACLCHECK_OK) return true;
  const AttrNumber ledger_id = get_attnum(relid, kLedgerColumnNames[kLedgerId]);
  const AttrNumber id = get_attnum(relid, kLedgerColumnNames[kId]);
  return ledger_id != InvalidAttrNumber && id != InvalidAttrNumber &&
         pg_attribute_aclcheck(relid, ledger_id, user, ACL_SELECT) == ACLCHECK_OK &&
         pg_attribute_aclcheck(relid, id, user, ACL_SELECT) == ACLCHECK_OK;
}

bool caller_sees(Relation rel, std::uint32_t ledger, const LedgerTail& tail, Snapshot snapshot) {
  if (superuser()) return true;
  const Oid seen = table_seen_by_caller(rel);
  if (!may_select(seen, GetUserId())) return false;
  if (check_enable_rls(seen, InvalidOid, true) != RLS_ENABLED) return true;
  if (!tail.found) return false;
  event_id::EventId visible;
  return latest_event(latest_event_plan(seen, Reader::caller), ledger, snapshot, &visible) &&
         event_id::compare(visible, tail.latest) == 0;
}

}  // namespace

void forget_ledger_plans(Oid relid) noexcept {
  for (CachedPlan& c : plan_cache) {
    if (relid == InvalidOid || c.relid == relid) c.stale = true;
  }
}

void lock_ledger(Relation rel, std::uint32_t ledger) {
  LOCKTAG tag;
  SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, RelationGetRelid(rel), ledger, kLedgerLockSubId);
  (void)LockAcquire(&tag, ExclusiveLock, false, false);
}

LedgerTail read_ledger_tail(Relation rel, std::uint32_t ledger) {
  const int settings = pin_sql_settings();
  // One snapshot for both reads, so the caller is checked against the very event the owner read.
  Snapshot snapshot = RegisterSnapshot(GetLatestSnapshot());
  LedgerTail tail{};
  tail.found = latest_event_as_owner(rel, ledger, snapshot, &tail.latest);
  tail.caller_sees = caller_sees(rel, ledger, tail, snapshot);
  UnregisterSnapshot(snapshot);
  unpin_sql_settings(settings);
  return tail;
}

void require_tail_in_snapshot(Relation rel, std::uint32_t ledger, const LedgerTail& tail) {
  if (!IsolationUsesXactSnapshot()) return;
  const int settings = pin_sql_settings();
  event_id::EventId seen;
  const bool seen_found = latest_event_as_owner(rel, ledger, InvalidSnapshot, &seen);
  unpin_sql_settings(settings);
  if (seen_found != tail.found || (tail.found && event_id::compare(seen, tail.latest) != 0)) {
    ereport(ERROR,
            (errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
             errmsg("could not serialize access due to a concurrent append to ledger %08x", ledger),
             errdetail("Another transaction appended to the ledger after this transaction's "
                       "snapshot was taken."),
             errhint("Retry the transaction.")));
  }
}

}  // namespace idgen::pg
