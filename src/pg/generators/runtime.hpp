// What PostgreSQL calls into the server-wide generators as a whole, when idgen is preloaded: the
// one shared memory request and start-up pair, and the WAL resource manager's callbacks. Both sit
// above every other file of the runtime and call down into each, in an order this file shows.
#pragma once

#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog_internal.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// From _PG_init while idgen is being preloaded: chains the shared memory hooks.
void install_generator_shared_memory();

// The resource manager of the generator mark's WAL record, which _PG_init registers under
// kMarkRmgrId (pg/generators/generator_mark.hpp).
RmgrData* generator_mark_rmgr();

}  // namespace idgen::pg
