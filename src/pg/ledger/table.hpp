// The shape of a ledger table, as the append trigger and ledger_create need it:
//   ledger_id bigint, id idgen.event_id, event text, entities jsonb, meta jsonb, data jsonb
// (other columns are allowed).
#pragma once

#include "core/stack_safe.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/relcache.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

enum LedgerColumn { kLedgerId, kId, kEvent, kEntities, kMeta, kData, kLedgerColumns };

extern const char* const kLedgerColumnNames[kLedgerColumns];

struct LedgerShape {
  int attnum[kLedgerColumns];
};
IDGEN_STACK_SAFE(LedgerShape);

// The oid of idgen.event_id, found next to the function being called (fn_oid), so it does not
// depend on any search_path.
Oid event_id_type_oid(FunctionCallInfo fcinfo);

// The attribute numbers of the columns; 42703 for a missing column, 42804 for one of another
// type. Read from the catalog, never from SQL text, once per table and trigger function: kept
// until the table's relcache entry is invalidated.
LedgerShape ledger_shape(FunctionCallInfo fcinfo, Relation rel);

// Drops the cached shape of relid (InvalidOid: of every table). Called from the relcache callback
// (cache_invalidation.hpp).
void forget_ledger_shapes(Oid relid) noexcept;

}  // namespace idgen::pg
