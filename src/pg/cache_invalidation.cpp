// See cache_invalidation.hpp.
#include "pg/cache_invalidation.hpp"

#include <cstdint>

#include "pg/callback.hpp"
#include "pg/compat.hpp"
#include "pg/group_registry.hpp"
#include "pg/ledger/table.hpp"
#include "pg/ledger/tail.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/inval.h"
#include "utils/syscache.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

// A relation changed (ALTER, rename, DROP; InvalidOid: possibly every relation).
void on_relation_change(Datum, Oid relid) noexcept {
  forget_cached_groups(relid);
  forget_ledger_shapes(relid);
  forget_ledger_plans(relid);
}

// A schema changed (a rename): the tail queries name tables with their schema.
void on_schema_change(Datum, SyscacheId, std::uint32_t) noexcept {
  forget_ledger_plans(InvalidOid);
}

}  // namespace

void install_cache_invalidation() {
  CacheRegisterRelcacheCallback(noexcept_callback(on_relation_change), 0);
  CacheRegisterSyscacheCallback(NAMESPACEOID, noexcept_callback(on_schema_change), 0);
}

}  // namespace idgen::pg
