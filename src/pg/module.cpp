// The shared library's entry: module magic and one-time initialisation.
#include "pg/cache_invalidation.hpp"
#include "pg/compat.hpp"
#include "pg/generators/generator_mark.hpp"
#include "pg/gucs.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/runtime.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog_internal.h"
#include "miscadmin.h"
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

extern "C" {
IDGEN_MODULE_MAGIC;
}

namespace idgen::pg {

extern "C" PGDLLEXPORT void _PG_init(void);

// Runs once per process that loads idgen: in the postmaster when idgen is in
// shared_preload_libraries (backends then inherit it through fork), else in each backend.
void _PG_init(void) {
  define_fixed_clock_guc();
  define_random_seed_guc();
  define_public_id_key_file_guc();
  define_ledger_max_lead_guc();
  define_node_id_guc();
  define_mark_max_lead_guc();
  define_library_version_guc();
  define_standby_gate_guc();
  define_log_lead_threshold_guc();
  MarkGUCPrefixReserved("idgen");
  // The server-wide generators: their shared memory and the generator mark's WAL records, which
  // only a preloaded library can have.
  if (process_shared_preload_libraries_in_progress) {
    install_generator_shared_memory();
    RegisterCustomRmgr(kMarkRmgrId, generator_mark_rmgr());
  }
  install_cache_invalidation();
}

}  // namespace idgen::pg
