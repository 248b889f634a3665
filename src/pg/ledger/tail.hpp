// A ledger's latest event as the append trigger reads it, and what the appending role may learn
// about it.
//
// The trigger chains a new event onto the ledger's latest one, so it must read that event whatever
// the appending role may see: it reads it as the table's owner, past row-level security (as
// PostgreSQL's foreign-key checks do), under a per-ledger lock. What the trigger then tells the
// appending role, in errors and by accepting the row, depends on whether that role could have read
// the event itself; a role that could not is told nothing about the ledger (not even whether it
// exists) and may not append to it.
#pragma once

#include <cstdint>

#include "core/event_id.hpp"
#include "core/stack_safe.hpp"
#include "pg/ledger/table.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// What the appending role may read of a ledger table, decided before the ledger's lock is taken:
// nothing (no SELECT on the table, or on both its ledger_id and id columns; for a partition, on
// the partitioned table it belongs to), every row (a superuser, or a role to which row-level
// security does not apply), or the rows its row-level security policies show it.
enum class CallerAccess { none, all_rows, policy_rows };
CallerAccess caller_access(Relation rel);

// What the role sees of a ledger before the ledger's lock is taken: whether it may see the ledger
// at all (for policy_rows, whether its policies show it any event of the ledger, and the latest
// of those). A role that may not is refused without waiting for the lock, as quickly as for a
// ledger that does not exist, so that neither waiting nor the lock tells it that someone appends
// to a ledger hidden from it.
struct CallerView {
  bool sees;                      // access is all_rows, or its policies show an event
  bool event_seen;                // policy_rows: latest_seen holds the latest event they show
  event_id::EventId latest_seen;  //   (read through a snapshot taken before the lock)
};
IDGEN_STACK_SAFE(CallerView);
CallerView caller_view(Relation rel, std::uint32_t ledger, CallerAccess access);

// Takes the ledger's append lock until the end of the transaction: an advisory lock with the
// sub-id 3, which pg_advisory_* (sub-ids 1 and 2) cannot take or meet, whose other fields are a
// keyed function of (table oid, ledger id), so pg_locks shows neither. Appenders of one ledger of
// one table wait for each other, and for nobody else.
void lock_ledger(Relation rel, std::uint32_t ledger);

// Marks the cached tail queries of relid stale (InvalidOid: all of them), to be rebuilt on their
// next use. Called from the invalidation callbacks (cache_invalidation.hpp), so it only marks.
void forget_ledger_plans(Oid relid) noexcept;

struct LedgerTail {
  bool found;                // the table has events of the ledger
  event_id::EventId latest;  // the latest of them, when found
  // Whether the calling role may read that: access is all_rows, or policy_rows and its policies
  // show it that very event. A role under row-level security does not see a ledger with no
  // events, since it could not tell it from one its policies hide.
  bool caller_sees;
};
IDGEN_STACK_SAFE(LedgerTail);

// The latest event of ledger in rel through a fresh snapshot (after lock_ledger, it shows what the
// previous lock holder committed and what this transaction added), and what a caller with access
// sees of it. When the role's view before the lock already showed it that very event (no append
// came in between, the usual case), the role's query is not run again: it read that event a
// moment before, so accepting its append tells it nothing it could not read.
LedgerTail read_ledger_tail(Relation rel, std::uint32_t ledger, CallerAccess access,
                            const CallerView* before_lock = nullptr);

// Under REPEATABLE READ or SERIALIZABLE, an append must not chain onto an event the transaction's
// snapshot does not show: 40001 when that snapshot's tail differs from tail.
void require_tail_in_snapshot(Relation rel, std::uint32_t ledger, const LedgerTail& tail);

}  // namespace idgen::pg
