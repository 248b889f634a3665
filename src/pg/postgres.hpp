// The PostgreSQL server headers, as C++ sees them. Every glue file includes this first: it brings
// postgres.h and fmgr.h, which every file needs, and the brackets for the file's own server
// headers, which it lists itself (as contrib modules and pgvector do), so each file shows what it
// depends on and a header that moves between majors touches only the files that use it:
//
//   #include "pg/postgres.hpp"
//
//   IDGEN_BEGIN_SERVER_HEADERS
//   #include "utils/builtins.h"
//   IDGEN_END_SERVER_HEADERS
//
// The server headers are C, so they need C linkage, and some trip C++ warnings (unused parameters
// in lib/ilist.h and storage/bufpage.h) that our own code must not be excused from, so the excuse
// is limited to them.
#pragma once

#define IDGEN_BEGIN_SERVER_HEADERS                                                        \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wunused-parameter\"") \
      _Pragma("GCC diagnostic ignored \"-Wmissing-field-initializers\"") extern "C" {
#define IDGEN_END_SERVER_HEADERS \
  }                              \
  _Pragma("GCC diagnostic pop")

// For the module's own globals that other files read on every id (the shared memory pointers):
// nothing outside the module links to them, so the module's code reaches them directly rather
// than through the global offset table, as it does its file-local ones. Put it on the extern
// declaration, which the definition sees.
#define IDGEN_HIDDEN __attribute__((visibility("hidden")))

IDGEN_BEGIN_SERVER_HEADERS
#include "postgres.h"

#include "fmgr.h"
// The varlena macros (VARDATA_ANY and the like), which postgres.h itself held up to 15.
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif
IDGEN_END_SERVER_HEADERS
