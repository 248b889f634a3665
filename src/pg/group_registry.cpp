// Group registry lookups with a per-backend cache; see group_registry.hpp.
//
// A column DEFAULT idgen.group_uuid('person', nextval(...)) looks the name up on every insert, so
// lookups must not run a query each time. A backend keeps the last few names it resolved
// (registered or not) and forgets them all when idgen.groups changes: the table's statement
// trigger (idgen_groups_changed) queues a relcache invalidation for it, which PostgreSQL delivers
// to every backend when the writing transaction commits, and to the writer itself at once.
#include "pg/group_registry.hpp"

#include <cstring>

#include "core/group_uuid.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/interrupts.hpp"
#include "pg/pinned_sql.hpp"

namespace idgen::pg {
namespace {

// Names longer than this are looked up every time; group names are class or table names.
constexpr int kMaxCachedName = 200;
constexpr int kCacheSlots = 16;

struct CachedGroup {
  int length = -1;  // -1: empty slot
  int group_id = 0;
  char name[kMaxCachedName];
};

CachedGroup cache[kCacheSlots];
int next_victim = 0;
Oid groups_relid = InvalidOid;  // idgen.groups, once known; its invalidation empties the cache

void forget_all() {
  for (CachedGroup& slot : cache) slot.length = -1;
  next_victim = 0;
  groups_relid = InvalidOid;
}

void on_relcache_invalidation(Datum, Oid relid) {
  if (relid == InvalidOid || relid == groups_relid) forget_all();
}

const CachedGroup* cached(const char* name, int length) {
  for (const CachedGroup& slot : cache) {
    if (slot.length == length && std::memcmp(slot.name, name, length) == 0) return &slot;
  }
  return nullptr;
}

// The registered id of name, or -1: one query against idgen.groups, as the calling role (which
// reads the registry through its SELECT grant to PUBLIC), immune to its search_path.
int registered_group_id(text* name) {
  if (SPI_connect() != SPI_OK_CONNECT) {
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not connect to SPI")));
  }
  const int settings = pin_sql_settings();
  Oid argtypes[1] = {TEXTOID};
  Datum values[1] = {PointerGetDatum(name)};
  const int rc = SPI_execute_with_args(
      "SELECT g.group_id FROM idgen.groups g WHERE g.name OPERATOR(pg_catalog.=) $1", 1, argtypes,
      values, nullptr, true, 1);
  int group_id = -1;
  if (rc == SPI_OK_SELECT && SPI_processed == 1) {
    bool isnull = true;
    const Datum d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
    if (!isnull) group_id = DatumGetInt32(d);
  }
  unpin_sql_settings(settings);
  SPI_finish();
  return group_id;
}

}  // namespace

int crc12_of_name(text* name) {
  const Utf8Bytes utf8 = utf8_bytes(name);  // the post's code hashes UTF-8
  int crc = 0;
  feed_interruptibly(utf8.data, utf8.len, [&crc](const std::uint8_t* piece, std::size_t n) {
    crc = group_uuid::crc12_extend(crc, piece, n);
  });
  return crc;
}

int group_id_of_name(text* name) {
  const char* data = VARDATA_ANY(name);
  const int len = static_cast<int>(VARSIZE_ANY_EXHDR(name));
  if (const CachedGroup* hit = cached(data, len)) return hit->group_id;

  if (groups_relid == InvalidOid) {
    const Oid schema = get_namespace_oid("idgen", true);
    groups_relid = OidIsValid(schema) ? get_relname_relid("groups", schema) : InvalidOid;
  }
  int group_id = registered_group_id(name);
  if (group_id < 0) group_id = crc12_of_name(name);
  if (len <= kMaxCachedName && OidIsValid(groups_relid)) {
    CachedGroup& slot = cache[next_victim];
    next_victim = (next_victim + 1) % kCacheSlots;
    std::memcpy(slot.name, data, len);
    slot.length = len;
    slot.group_id = group_id;
  }
  return group_id;
}

void install_group_registry_cache() { CacheRegisterRelcacheCallback(on_relcache_invalidation, 0); }

}  // namespace idgen::pg

// Statement trigger on idgen.groups: every backend drops its cached names when the change commits.
IDGEN_SQL_FUNCTION(idgen_groups_changed) {
  if (!CALLED_AS_TRIGGER(fcinfo)) {
    ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                    errmsg("idgen.groups_changed() must be called as a trigger")));
  }
  const auto* trigger = reinterpret_cast<TriggerData*>(fcinfo->context);
  CacheInvalidateRelcache(trigger->tg_relation);
  return static_cast<Datum>(0);  // a statement trigger's result is ignored
}
