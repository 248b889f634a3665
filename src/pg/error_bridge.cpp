// See error_bridge.hpp. The only glue file compiled with exceptions (Makefile).
#include "pg/error_bridge.hpp"

#include <exception>

namespace idgen::pg {
namespace {

[[noreturn]] void report_escaped_exception(const char* what) noexcept {
  ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                  errmsg("idgen internal error: unexpected C++ exception"), errdetail("%s", what)));
  pg_unreachable();
}

}  // namespace

Datum call_guarded(PGFunction body, FunctionCallInfo fcinfo) noexcept {
  // Copied out of the exception object so the object is destroyed before ereport longjmps.
  char what[256];
  try {
    return body(fcinfo);
  } catch (const std::exception& e) {
    strlcpy(what, e.what(), sizeof what);
  } catch (...) {
    strlcpy(what, "unknown exception", sizeof what);
  }
  report_escaped_exception(what);
}

}  // namespace idgen::pg
