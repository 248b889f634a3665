// The C++/PostgreSQL error boundary (CONTRIBUTING.md, "The boundary rules, as the code applies
// them").
//
// PostgreSQL reports errors with longjmp, C++ with exceptions, and neither may cross the other:
//  - every SQL-callable function is defined with IDGEN_SQL_FUNCTION, which catches any C++
//    exception, copies its text into a plain buffer, leaves the catch block and only then calls
//    ereport;
//  - a function body may call PostgreSQL functions that ereport (palloc, nextval, ereport itself),
//    so it must keep only trivially destructible objects on its stack (core value types, PODs):
//    a longjmp skips destructors.
// src/core is noexcept on its public surface, so the catch is a last line of defence against the
// standard library (std::bad_alloc and the like), not a reporting channel.
#pragma once

#include <exception>

#include "pg/postgres.hpp"

namespace idgen::pg {

// Reports an escaped C++ exception as an internal error. Never returns.
[[noreturn]] void report_escaped_exception(const char* what);

template <typename Body>
inline Datum call_guarded(Body body, FunctionCallInfo fcinfo) {
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

// Defines the SQL-callable C function `name` (declared in sql/idgen--*.sql as 'MODULE_PATHNAME',
// 'name'); the braces that follow are its body, run inside call_guarded.
#define IDGEN_SQL_FUNCTION(name)                                                                   \
  extern "C" {                                                                                     \
  PG_FUNCTION_INFO_V1(name);                                                                       \
  }                                                                                                \
  static Datum name##_body(FunctionCallInfo fcinfo);                                               \
  extern "C" Datum name(PG_FUNCTION_ARGS) { return idgen::pg::call_guarded(name##_body, fcinfo); } \
  static Datum name##_body(FunctionCallInfo fcinfo)
