// The C++/PostgreSQL error boundary (CONTRIBUTING.md, "The boundary rules, as the code applies
// them").
//
// PostgreSQL reports errors with longjmp, C++ with exceptions, and neither may cross the other:
//  - every SQL-callable function is defined with IDGEN_SQL_FUNCTION, whose body runs inside
//    call_guarded: the one try/catch of the glue, which copies an escaped exception's text into a
//    plain buffer, leaves the catch block and only then calls ereport;
//  - the rest of src/pg is compiled with -fno-exceptions (Makefile), so glue code cannot throw or
//    catch at all;
//  - a function body may call PostgreSQL functions that ereport (palloc, nextval, ereport itself),
//    so it keeps only trivially destructible objects on its stack (IDGEN_STACK_SAFE types): a
//    longjmp skips destructors;
//  - functions PostgreSQL calls directly (hooks, GUC hooks, sort support) are noexcept, and are
//    handed over through noexcept_callback (pg/callback.hpp), which refuses any other.
// src/core is noexcept on its public surface, so the catch is a last line of defence against the
// standard library (std::bad_alloc and the like), not a reporting channel.
#pragma once

#include "pg/postgres.hpp"

namespace idgen::pg {

// Runs body(fcinfo); an exception that escapes it becomes an internal error (ereport, so this
// returns only body's result). Out of line, in the one glue file compiled with exceptions.
Datum call_guarded(PGFunction body, FunctionCallInfo fcinfo) noexcept;

}  // namespace idgen::pg

// Defines the SQL-callable C function `name` (declared in sql/idgen.sql as 'MODULE_PATHNAME',
// 'name'); the braces that follow are its body, run inside call_guarded.
#define IDGEN_SQL_FUNCTION(name)                                                                   \
  extern "C" {                                                                                     \
  PG_FUNCTION_INFO_V1(name);                                                                       \
  }                                                                                                \
  static Datum name##_body(FunctionCallInfo fcinfo);                                               \
  extern "C" Datum name(PG_FUNCTION_ARGS) { return idgen::pg::call_guarded(name##_body, fcinfo); } \
  static Datum name##_body(FunctionCallInfo fcinfo)
