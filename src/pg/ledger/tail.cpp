// See ledger/tail.hpp.
#include "pg/ledger/tail.hpp"

#include <cstdint>
#include <cstring>

#include "core/aes_block.hpp"
#include "core/stack_safe.hpp"
#include "pg/ledger/event_id_datum.hpp"
#include "pg/immortal.hpp"
#include "pg/owner_rights.hpp"
#include "pg/pinned_sql.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog.h"
#include "catalog/partition.h"
#include "catalog/pg_control.h"
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
// access. The owner's plan reads only the table itself (ONLY: the chain is the table's own); the
// caller's plan reads the table it checks the caller against, the partitioned root for a
// partition, under the caller's row-level security. A handful of ledger tables per database is the
// expected case.
//
// A plan can be running when this cache is used again on the same backend: the caller's plan runs
// the table's row-level security policies, which may append to ledgers or create them, and so
// re-enter the trigger, which may need a slot. A plan is therefore freed only when no execution
// of it is in progress (`running` counts them, nested ones included), never from the invalidation
// callback and never while `running` is above zero. When every slot holds a running plan, the
// plan is made for this one execution and dropped with the trigger's SPI connection.
struct CachedPlan {
  Oid relid;
  Reader reader;
  bool stale;
  int running;
  SPIPlanPtr plan;
};
IDGEN_STACK_SAFE(CachedPlan);
constexpr int kCachedPlans = 16;
CachedPlan plan_cache[kCachedPlans];
int plan_cache_next = 0;

// A plan to run: the cache slot it lives in, or -1 for a plan made for one execution.
struct TailPlan {
  SPIPlanPtr plan;
  int slot;
};
IDGEN_STACK_SAFE(TailPlan);

// The slot for a new plan, or -1 when every slot holds a running plan: an empty slot, else one
// whose plan is stale and not running, else the next in turn that is not running.
int free_slot() {
  for (int i = 0; i < kCachedPlans; ++i) {
    if (plan_cache[i].plan == nullptr) return i;
  }
  for (int i = 0; i < kCachedPlans; ++i) {
    if (plan_cache[i].stale && plan_cache[i].running == 0) return i;
  }
  for (int n = 0; n < kCachedPlans; ++n) {
    const int i = plan_cache_next;
    plan_cache_next = (plan_cache_next + 1) % kCachedPlans;
    if (plan_cache[i].running == 0) return i;
  }
  return -1;
}

TailPlan latest_event_plan(Oid relid, Reader reader) {
  for (int i = 0; i < kCachedPlans; ++i) {
    const CachedPlan& c = plan_cache[i];
    if (c.plan != nullptr && !c.stale && c.relid == relid && c.reader == reader) {
      return {c.plan, i};
    }
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
  const int slot = free_slot();
  if (slot < 0) return {plan, -1};  // in the SPI connection's memory until SPI_finish
  SPI_keepplan(plan);
  CachedPlan& c = plan_cache[slot];
  SPIPlanPtr old = c.plan;
  c = {relid, reader, false, 0, plan};
  if (old != nullptr) SPI_freeplan(old);
  return {plan, slot};
}

// Runs the plan, counted as running in its slot for as long as it runs, however it ends.
int execute_tail_plan(TailPlan tail_plan, Datum* args, Snapshot snapshot) {
  volatile int rc = 0;
  const int slot = tail_plan.slot;
  if (slot >= 0) ++plan_cache[slot].running;
  PG_TRY();
  {
    rc = snapshot != InvalidSnapshot ? SPI_execute_snapshot(tail_plan.plan, args, nullptr, snapshot,
                                                            InvalidSnapshot, false, false, 1)
                                     : SPI_execute_plan(tail_plan.plan, args, nullptr, false, 1);
  }
  PG_FINALLY();
  {
    if (slot >= 0) --plan_cache[slot].running;
  }
  PG_END_TRY();
  return rc;
}

// The latest event of the ledger by plan through snapshot (InvalidSnapshot: the transaction's);
// false when there is none.
bool latest_event(TailPlan plan, std::uint32_t ledger, Snapshot snapshot, event_id::EventId* out) {
  Datum args[1] = {Int64GetDatum(ledger)};
  const int rc = execute_tail_plan(plan, args, snapshot);
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
  bool found = false;
  with_rights_of(rel->rd_rel->relowner, SECURITY_NOFORCE_RLS, [&] {
    found = latest_event(latest_event_plan(RelationGetRelid(rel), Reader::owner), ledger, snapshot,
                         out);
  });
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

// The latest event of the ledger that the caller's own policies show it, through snapshot.
bool latest_event_as_caller(Relation rel, std::uint32_t ledger, Snapshot snapshot,
                            event_id::EventId* out) {
  return latest_event(latest_event_plan(table_seen_by_caller(rel), Reader::caller), ledger,
                      snapshot, out);
}

// The ledger lock's tag: a keyed 64-bit function of (table oid, ledger id), so pg_locks, which
// every role may read, shows neither the table nor the ledger. The key is derived from the
// cluster's mock authentication nonce, 32 random bytes that initdb writes to pg_control and that
// no SQL function shows (PostgreSQL derives the salts it shows for unknown users from it, for the
// same purpose: an outsider learns nothing it could not read). Every backend of the cluster
// derives the same key, so appenders of one ledger still meet on one lock.
Immortal<AesBlockCipher> lock_tag_cipher;

const AesBlockCipher& ledger_lock_cipher() {
  AesBlockCipher& cipher = lock_tag_cipher.get();
  if (cipher.has_key()) return cipher;
  static_assert(MOCK_AUTH_NONCE_LEN == 32, "the nonce is an AES-256 key");
  static const std::uint8_t kLabel[16] = {'i', 'd', 'g', 'e', 'n', ' ', 'l', 'e',
                                          'd', 'g', 'e', 'r', ' ', 'l', 'c', 'k'};
  if (!set_derived_key(cipher, reinterpret_cast<const std::uint8_t*>(GetMockAuthenticationNonce()),
                       MOCK_AUTH_NONCE_LEN, kLabel)) {
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                    errmsg("could not derive the ledger lock key: OpenSSL failed")));
  }
  return cipher;
}

}  // namespace

void forget_ledger_plans(Oid relid) noexcept {
  for (CachedPlan& c : plan_cache) {
    if (relid == InvalidOid || c.relid == relid) c.stale = true;
  }
}

void lock_ledger(Relation rel, std::uint32_t ledger) {
  std::uint64_t tag_value = 0;
  if (!keyed_u64(ledger_lock_cipher(), std::uint64_t{RelationGetRelid(rel)} << 32 | ledger,
                 &tag_value)) {
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                    errmsg("could not compute the ledger lock: OpenSSL failed")));
  }
  LOCKTAG tag;
  SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, static_cast<std::uint32_t>(tag_value >> 32),
                       static_cast<std::uint32_t>(tag_value), kLedgerLockSubId);
  (void)LockAcquire(&tag, ExclusiveLock, false, false);
}

CallerAccess caller_access(Relation rel) {
  if (superuser()) return CallerAccess::all_rows;
  const Oid seen = table_seen_by_caller(rel);
  if (!may_select(seen, GetUserId())) return CallerAccess::none;
  return check_enable_rls(seen, InvalidOid, true) == RLS_ENABLED ? CallerAccess::policy_rows
                                                                 : CallerAccess::all_rows;
}

CallerView caller_view(Relation rel, std::uint32_t ledger, CallerAccess access) {
  CallerView view{};
  switch (access) {
    case CallerAccess::none:
      return view;
    case CallerAccess::all_rows:
      view.sees = true;
      return view;
    case CallerAccess::policy_rows:
      break;
  }
  const int settings = pin_sql_settings();
  view.event_seen = latest_event_as_caller(rel, ledger, InvalidSnapshot, &view.latest_seen);
  unpin_sql_settings(settings);
  view.sees = view.event_seen;
  return view;
}

LedgerTail read_ledger_tail(Relation rel, std::uint32_t ledger, CallerAccess access,
                            const CallerView* before_lock) {
  const int settings = pin_sql_settings();
  // One snapshot for both reads, so the caller is checked against the very event the owner read.
  Snapshot snapshot = RegisterSnapshot(GetLatestSnapshot());
  LedgerTail tail{};
  tail.found = latest_event_as_owner(rel, ledger, snapshot, &tail.latest);
  switch (access) {
    case CallerAccess::none:
      tail.caller_sees = false;
      break;
    case CallerAccess::all_rows:
      tail.caller_sees = true;
      break;
    case CallerAccess::policy_rows: {
      // A role under row-level security does not see a ledger with no events: it could not tell
      // it from one its policies hide.
      event_id::EventId visible;
      const bool seen_before_lock = before_lock != nullptr && before_lock->event_seen &&
                                    tail.found &&
                                    event_id::compare(before_lock->latest_seen, tail.latest) == 0;
      tail.caller_sees = seen_before_lock ||
                         (tail.found && latest_event_as_caller(rel, ledger, snapshot, &visible) &&
                          event_id::compare(visible, tail.latest) == 0);
      break;
    }
  }
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
