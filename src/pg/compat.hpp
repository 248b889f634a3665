// Differences between the PostgreSQL majors idgen supports (15 to 19), in one place: the glue
// calls these instead of testing PG_VERSION_NUM itself.
#pragma once

#include <cstddef>
#include <cstdlib>

#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "datatype/timestamp.h"
#include "pgtime.h"
#include "utils/backend_status.h"
#include "utils/guc.h"    // guc_malloc (16+)
#include "utils/inval.h"  // SysCacheIdentifier (19+)
IDGEN_END_SERVER_HEADERS

#if PG_VERSION_NUM < 150000
#error "idgen needs PostgreSQL 15 or later"
#endif

struct config_generic;  // utils/guc_tables.h

namespace idgen::pg {

// Memory for a GUC check hook's extra data, which PostgreSQL frees itself: with free() up to 15,
// with guc_free() from 16 on (so it must come from guc_malloc there). nullptr when out of memory.
inline void* guc_extra_alloc(std::size_t size) {
#if PG_VERSION_NUM >= 160000
  return guc_malloc(LOG, size);
#else
  return std::malloc(size);
#endif
}

// The GUC machinery's record of the setting called name (utils/guc_tables.h: its source, the
// role that set it, its stack of saved values), for a setting's own hooks; nullptr when no module
// defined it (a placeholder). Never raises, so an assign hook may call it. 16 on export
// find_option(); 15 only the whole table.
config_generic* find_guc_record(const char* name) noexcept;

// The cache id a syscache invalidation callback receives: an int up to 18, the enum
// SysCacheIdentifier from 19 on.
#if PG_VERSION_NUM >= 190000
using SyscacheId = SysCacheIdentifier;
#else
using SyscacheId = int;
#endif

// DecodeDateTime, for a GUC check hook, which must never raise: 15 raises ERROR for an unknown
// time zone name (16 returns DTERR_BAD_TIMEZONE instead). Either way an unknown zone leaves
// GUC_check_errdetail "time zone \"<name>\" not recognized." and a non-zero result.
int decode_date_time_quietly(char** field, int* ftype, int nf, int* dtype, struct pg_tm* tm_value,
                             fsec_t* fsec, int* tz);

// Whether role owns relation relid (or is a member of its owner, or a superuser): up to 15
// pg_class_ownercheck, from 16 on object_ownercheck.
bool owns_relation(Oid relid, Oid role);

// Entry `index` (1 .. pgstat_fetch_stat_numbackends()) of this backend's snapshot of every
// backend's status, as pg_stat_activity reads it; nullptr outside that range. Named
// pgstat_fetch_stat_local_beentry up to 15, pgstat_get_local_beentry_by_index from 16.
const PgBackendStatus* backend_status_entry(int index);

}  // namespace idgen::pg

// The report of malformed input in a type's input function: from 16 on into the caller's
// ErrorSaveContext when it passed one (pg_input_is_valid, COPY ... ON_ERROR), after which the
// function returns; up to 15, and without such a context, an ERROR. The rest are errcode(),
// errmsg() and the like, as for ereport.
#if PG_VERSION_NUM >= 160000
#define IDGEN_INPUT_ERROR(escontext, ...) errsave(escontext, __VA_ARGS__)
#else
#define IDGEN_INPUT_ERROR(escontext, ...) \
  do {                                    \
    (void)(escontext);                    \
    ereport(ERROR, __VA_ARGS__);          \
  } while (0)
#endif

// The module's magic block; from 18 on it also carries the module's name and version, which
// pg_get_loaded_modules() shows (IDGEN_VERSION comes from the control file, via the Makefile).
#if PG_VERSION_NUM >= 180000
#define IDGEN_MODULE_MAGIC PG_MODULE_MAGIC_EXT(.name = "idgen", .version = IDGEN_VERSION)
#else
#define IDGEN_MODULE_MAGIC PG_MODULE_MAGIC
#endif
