// The shared library's entry: module magic and one-time initialisation.
#include "pg/cache_invalidation.hpp"
#include "pg/compat.hpp"
#include "pg/generators/generator_state.hpp"
#include "pg/gucs.hpp"
#include "pg/generators/mark_scan.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/server_clock.hpp"

IDGEN_BEGIN_SERVER_HEADERS
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
  MarkGUCPrefixReserved("idgen");
  // In this order: each one's shared memory is initialised after the one before it (the server
  // clock places DistributedId's state after the mark; the mark scan asks whether the clock found
  // its file).
  install_shared_generator_state();
  install_server_clock();
  install_mark_scan();
  install_cache_invalidation();
}

}  // namespace idgen::pg
