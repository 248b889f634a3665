// See pinned_sql.hpp.
#include "pg/pinned_sql.hpp"

#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

int pin_sql_settings() {
  const int level = NewGUCNestLevel();
  // GUC_ACTION_SAVE: the values last until AtEOXact_GUC of this level (or the abort of the
  // transaction), exactly as for a function's SET clause.
  (void)set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
                          GUC_ACTION_SAVE, true, 0, false);
  (void)set_config_option("row_security", "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true,
                          0, false);
  return level;
}

void unpin_sql_settings(int level) { AtEOXact_GUC(true, level); }

}  // namespace idgen::pg
