// See compat.hpp.
#include "pg/compat.hpp"

#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "catalog/pg_class.h"
#include "utils/acl.h"
#include "utils/backend_status.h"
#include "utils/datetime.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

config_generic* find_guc_record(const char* name) noexcept {
#if PG_VERSION_NUM >= 160000
  // No placeholder is made and nothing is reported: a hash lookup.
  config_generic* record = find_option(name, false, true, DEBUG5);
#else
  config_generic* record = nullptr;
  config_generic** records = get_guc_variables();
  const int count = GetNumConfigOptions();
  for (int i = 0; i < count && record == nullptr; ++i) {
    if (pg_strcasecmp(records[i]->name, name) == 0) record = records[i];
  }
#endif
  if (record == nullptr || (record->flags & GUC_CUSTOM_PLACEHOLDER) != 0) return nullptr;
  return record;
}

int decode_date_time_quietly(char** field, int* ftype, int nf, int* dtype, struct pg_tm* tm_value,
                             fsec_t* fsec, int* tz) {
#if PG_VERSION_NUM >= 160000
  DateTimeErrorExtra extra{};
  const int dterr = DecodeDateTime(field, ftype, nf, dtype, tm_value, fsec, tz, &extra);
  if (dterr == DTERR_BAD_TIMEZONE && extra.dtee_timezone != nullptr) {
    GUC_check_errdetail("time zone \"%s\" not recognized.", extra.dtee_timezone);
  }
  return dterr;
#else
  // The raised error is caught and turned into the detail. DecodeDateTime takes no locks and
  // keeps no state, so flushing the error state is all the clean-up there is.
  volatile int dterr = 0;
  MemoryContext context = CurrentMemoryContext;
  PG_TRY();
  { dterr = DecodeDateTime(field, ftype, nf, dtype, tm_value, fsec, tz); }
  PG_CATCH();
  {
    MemoryContextSwitchTo(context);
    ErrorData* error = CopyErrorData();
    FlushErrorState();
    GUC_check_errdetail("%s.", error->message);
    FreeErrorData(error);
    dterr = DTERR_BAD_FORMAT;
  }
  PG_END_TRY();
  return dterr;
#endif
}

bool owns_relation(Oid relid, Oid role) {
#if PG_VERSION_NUM >= 160000
  return object_ownercheck(RelationRelationId, relid, role);
#else
  return pg_class_ownercheck(relid, role);
#endif
}

const PgBackendStatus* backend_status_entry(int index) {
#if PG_VERSION_NUM >= 160000
  const LocalPgBackendStatus* local = pgstat_get_local_beentry_by_index(index);
#else
  const LocalPgBackendStatus* local = pgstat_fetch_stat_local_beentry(index);
#endif
  return local == nullptr ? nullptr : &local->backendStatus;
}

}  // namespace idgen::pg
