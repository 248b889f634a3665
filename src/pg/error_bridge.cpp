// See error_bridge.hpp.
#include "pg/error_bridge.hpp"

namespace idgen::pg {

void report_escaped_exception(const char* what) {
  ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                  errmsg("idgen internal error: unexpected C++ exception"), errdetail("%s", what)));
  pg_unreachable();
}

}  // namespace idgen::pg
