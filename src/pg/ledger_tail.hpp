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
#include "pg/ledger_table.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// Takes the ledger's append lock until the end of the transaction: an advisory lock on
// (table oid, ledger id) with the sub-id 3, which pg_advisory_* (sub-ids 1 and 2) cannot take or
// meet. Appenders of one ledger of one table wait for each other, and for nobody else.
void lock_ledger(Relation rel, std::uint32_t ledger);

// Marks the cached tail queries of relid stale (InvalidOid: all of them), to be rebuilt on their
// next use. Called from the invalidation callbacks (cache_invalidation.hpp), so it only marks.
void forget_ledger_plans(Oid relid) noexcept;

struct LedgerTail {
  bool found;                // the table has events of the ledger
  event_id::EventId latest;  // the latest of them, when found
  // Whether the calling role may read that: it has SELECT on the table, or on both its ledger_id
  // and id columns (for a partition, on the partitioned table it belongs to), and row-level
  // security does not apply to it or its policies show it that very event. A role to whom
  // row-level security applies does not see a ledger with no events, since it could not tell it
  // from one its policies hide.
  bool caller_sees;
};
IDGEN_STACK_SAFE(LedgerTail);

// The latest event of ledger in rel through a fresh snapshot (after lock_ledger, it shows what the
// previous lock holder committed and what this transaction added), and what the caller sees of it.
LedgerTail read_ledger_tail(Relation rel, std::uint32_t ledger);

// Under REPEATABLE READ or SERIALIZABLE, an append must not chain onto an event the transaction's
// snapshot does not show: 40001 when that snapshot's tail differs from tail.
void require_tail_in_snapshot(Relation rel, std::uint32_t ledger, const LedgerTail& tail);

}  // namespace idgen::pg
