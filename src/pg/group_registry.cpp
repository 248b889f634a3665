// See group_registry.hpp: group registry lookups with a per-backend cache.
//
// A column DEFAULT idgen.group_uuid('person', nextval(...)) looks the name up on every insert, so
// lookups must not run a query each time. A backend keeps the last few names it resolved
// (registered or not) and forgets them all when idgen.groups changes: the table's statement
// trigger (idgen_groups_changed) queues a relcache invalidation for it, which PostgreSQL delivers
// to every backend when the writing transaction commits, and to the writer itself at once.
//
// On a Citus cluster idgen.groups is a reference table (idgen.distribute_groups()): each node
// holds a copy, changed on all nodes in one distributed transaction, and the trigger fires on each
// node's copy. Lookups read the node's own copy, also inside queries that Citus pushed to shards.
#include "pg/group_registry.hpp"

#include <cstring>

#include "core/group_uuid.hpp"
#include "core/stack_safe.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/interrupts.hpp"
#include "pg/pinned_sql.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "catalog/namespace.h"
#include "executor/spi.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
IDGEN_END_SERVER_HEADERS

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
IDGEN_STACK_SAFE(CachedGroup);

CachedGroup cache[kCacheSlots];
int next_victim = 0;
Oid groups_relid = InvalidOid;  // idgen.groups, once known; its invalidation empties the cache

void forget_all() {
  for (CachedGroup& slot : cache) slot.length = -1;
  next_victim = 0;
  groups_relid = InvalidOid;
}

const CachedGroup* cached(const char* name, int length) {
  for (const CachedGroup& slot : cache) {
    if (slot.length == length && std::memcmp(slot.name, name, length) == 0) return &slot;
  }
  return nullptr;
}

// Makes a registry read allowed inside a query that Citus pushed to a shard. On a Citus cluster
// idgen.groups is a reference table (idgen.distribute_groups): every node holds a copy, and a read
// of it is itself a Citus query, which Citus refuses inside a shard query unless this setting is
// on. The read then uses the node's own copy. Without Citus the setting does not exist and
// nothing is set.
void allow_registry_read_in_shard_query() {
  constexpr const char* kNested = "citus.allow_nested_distributed_execution";
  if (GetConfigOption(kNested, true, false) == nullptr) return;
  (void)set_config_option(kNested, "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
                          false);
}

// Runs one registry query with one argument and returns its first row's first column, or
// is_null = true: as the calling role (which reads the registry through its SELECT grant to
// PUBLIC), immune to its search_path. The result is copied out of SPI's memory.
Datum registry_value(const char* sql, Oid argtype, Datum arg, bool* is_null) {
  if (SPI_connect() != SPI_OK_CONNECT) {
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not connect to SPI")));
  }
  const int settings = pin_sql_settings();
  allow_registry_read_in_shard_query();
  Oid argtypes[1] = {argtype};
  Datum values[1] = {arg};
  const int rc = SPI_execute_with_args(sql, 1, argtypes, values, nullptr, true, 1);
  *is_null = true;
  Datum result = static_cast<Datum>(0);
  if (rc == SPI_OK_SELECT && SPI_processed == 1) {
    TupleDesc desc = SPI_tuptable->tupdesc;
    const Datum d = SPI_getbinval(SPI_tuptable->vals[0], desc, 1, is_null);
    if (!*is_null) {
      const Form_pg_attribute column = TupleDescAttr(desc, 0);
      result = SPI_datumTransfer(d, column->attbyval, column->attlen);
    }
  }
  unpin_sql_settings(settings);
  SPI_finish();
  return result;
}

// The registered id of name, or -1.
int registered_group_id(text* name) {
  bool is_null = true;
  const Datum id =
      registry_value("SELECT g.group_id FROM idgen.groups g WHERE g.name OPERATOR(pg_catalog.=) $1",
                     TEXTOID, PointerGetDatum(name), &is_null);
  return is_null ? -1 : DatumGetInt32(id);
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

Oid groups_table() {
  const Oid schema = get_namespace_oid("idgen", true);
  return OidIsValid(schema) ? get_relname_relid("groups", schema) : InvalidOid;
}

int group_id_of_name(text* name) {
  const char* data = VARDATA_ANY(name);
  const int len = static_cast<int>(VARSIZE_ANY_EXHDR(name));
  if (const CachedGroup* hit = cached(data, len)) return hit->group_id;

  if (groups_relid == InvalidOid) groups_relid = groups_table();
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

Datum registered_group_name(int group_id, bool* is_null) {
  return registry_value(
      "SELECT g.name FROM idgen.groups g WHERE g.group_id OPERATOR(pg_catalog.=) $1", INT4OID,
      Int32GetDatum(group_id), is_null);
}

Datum registered_group_target(int group_id, bool* is_null) {
  // Only a table that exists: the event trigger forgets dropped tables, but does not fire in
  // single-user mode or with event_triggers = off.
  return registry_value(
      "SELECT g.target FROM idgen.groups g JOIN pg_catalog.pg_class c"
      " ON c.oid OPERATOR(pg_catalog.=) g.target WHERE g.group_id OPERATOR(pg_catalog.=) $1",
      INT4OID, Int32GetDatum(group_id), is_null);
}

void forget_cached_groups(Oid relid) noexcept {
  if (relid == InvalidOid || relid == groups_relid) forget_all();
}

// Statement trigger on idgen.groups: every backend drops its cached names when the change commits.
IDGEN_SQL_FUNCTION(idgen_groups_changed) {
  if (!CALLED_AS_TRIGGER(fcinfo)) {
    ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                    errmsg("idgen.groups_changed() must be called as a trigger")));
  }
  const auto* trigger = reinterpret_cast<TriggerData*>(fcinfo->context);
  // The caches watch idgen.groups by oid. On a Citus cluster this trigger fires on each node's
  // copy of the table (a shard with a name of its own), so the invalidation names idgen.groups.
  const Oid groups = groups_table();
  if (OidIsValid(groups)) {
    CacheInvalidateRelcacheByRelid(groups);
  } else {
    CacheInvalidateRelcache(trigger->tg_relation);
  }
  return static_cast<Datum>(0);  // a statement trigger's result is ignored
}

}  // namespace idgen::pg
