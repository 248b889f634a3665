// See group_registry.hpp: group registry lookups with a per-backend cache.
//
// A column DEFAULT idgen.group_uuid('person', nextval(...)) looks the name up on every insert, so
// lookups must not run a query each time. A backend keeps the last few names it resolved
// (registered or not) and forgets them all when the registry changes: the table's statement
// trigger (idgen_groups_changed) queues a relcache invalidation for it, which PostgreSQL delivers
// to every backend when the writing transaction commits, and to the writer itself at once.
//
// The registry is the table idgen_internal.groups, which only idgen, superusers and the database's
// owner read directly (everyone reads the view idgen.groups); lookups read it as its owner.
//
// On a Citus cluster the registry is a reference table (idgen.distribute_groups()): each node
// holds a copy, changed on all nodes in one distributed transaction, and the trigger fires on each
// node's copy. Lookups read the node's own copy, also inside queries that Citus pushed to shards.
#include "pg/group_registry.hpp"

#include <cstring>

#include "core/group_uuid.hpp"
#include "core/stack_safe.hpp"
#include "pg/compat.hpp"
#include "pg/convert.hpp"
#include "pg/error_bridge.hpp"
#include "pg/interrupts.hpp"
#include "pg/owner_rights.hpp"
#include "pg/pinned_sql.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "catalog/catalog.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_proc.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
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
Oid groups_relid = InvalidOid;  // the registry, once known; its invalidation empties the cache

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
// the registry is a reference table (idgen.distribute_groups): every node holds a copy, and a read
// of it is itself a Citus query, which Citus refuses inside a shard query unless this setting is
// on. The read then uses the node's own copy. Without Citus the setting does not exist and
// nothing is set.
void allow_registry_read_in_shard_query() {
  constexpr const char* kNested = "citus.allow_nested_distributed_execution";
  if (GetConfigOption(kNested, true, false) == nullptr) return;
  (void)set_config_option(kNested, "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
                          false);
}

// The registry's name as SQL text, schema-qualified: idgen_internal.groups from 0.4.0 on,
// idgen.groups in a database whose extension is still 0.3.0. NULL while the extension is being
// dropped.
const char* qualified_groups_name(Oid relid) {
  const char* schema = get_namespace_name(get_rel_namespace(relid));
  return schema != nullptr ? quote_qualified_identifier(schema, "groups") : nullptr;
}

// Runs one registry query with one argument and returns its first row's first column, or
// is_null = true. `sql` holds one %s, where the registry's qualified name goes. The query runs as
// the registry's owner (no role but the database's owner may read the table itself: a role that
// can name a table can queue a lock on it, which idgen's reads would wait behind), immune to the
// caller's search_path, with no code of the caller's in it. The result is copied out of SPI's
// memory.
Datum registry_value(const char* sql, Oid argtype, Datum arg, bool* is_null) {
  *is_null = true;
  const Oid groups = groups_table();
  const char* table = OidIsValid(groups) ? qualified_groups_name(groups) : nullptr;
  if (table == nullptr) return static_cast<Datum>(0);
  const char* query = psprintf(sql, table);
  Datum result = static_cast<Datum>(0);
  with_rights_of(relation_owner(groups), SECURITY_RESTRICTED_OPERATION, [&] {
    if (SPI_connect() != SPI_OK_CONNECT) {
      ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not connect to SPI")));
    }
    const int settings = pin_sql_settings();
    allow_registry_read_in_shard_query();
    Oid argtypes[1] = {argtype};
    Datum values[1] = {arg};
    const int rc = SPI_execute_with_args(query, 1, argtypes, values, nullptr, true, 1);
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
  });
  return result;
}

// The registered id of name, or -1.
int registered_group_id(text* name) {
  bool is_null = true;
  const Datum id =
      registry_value("SELECT g.group_id FROM %s g WHERE g.name OPERATOR(pg_catalog.=) $1", TEXTOID,
                     PointerGetDatum(name), &is_null);
  return is_null ? -1 : DatumGetInt32(id);
}

// idgen_internal.register_group(text, integer, regclass), the extension's own.
Oid registration_function() {
  const Oid schema = get_namespace_oid("idgen_internal", true);
  Oid arg_types[3] = {TEXTOID, INT4OID, REGCLASSOID};
  const Oid fn =
      OidIsValid(schema)
          ? GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid, CStringGetDatum("register_group"),
                            PointerGetDatum(buildoidvector(arg_types, 3)), ObjectIdGetDatum(schema))
          : InvalidOid;
  const Oid extension = get_extension_oid("idgen", true);
  if (!OidIsValid(fn) || getExtensionOfObject(ProcedureRelationId, fn) != extension) {
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_FUNCTION),
                    errmsg("idgen_internal.register_group(text, integer, regclass) is missing"),
                    errhint("Run ALTER EXTENSION idgen UPDATE in this database.")));
  }
  return fn;
}

// A group's table: a table or partitioned table that exists, is not a system catalog, and that the
// calling role owns.
void require_own_table(Oid relid) {
  const char relkind = get_rel_relkind(relid);
  if (relkind == '\0') {
    ereport(ERROR,
            (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("relation with OID %u does not exist", relid),
             errdetail("A group's target is an existing table.")));
  }
  const char* name = get_rel_name(relid);
  if (IsCatalogRelationOid(relid)) {
    ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("permission denied: \"%s\" is a system catalog", name)));
  }
  if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE) {
    ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("\"%s\" is not a table", name),
                    errdetail("A group's target is the table that holds the group's rows.")));
  }
  if (!owns_relation(relid, GetUserId())) aclcheck_error(ACLCHECK_NOT_OWNER, OBJECT_TABLE, name);
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
  static const char* const kSchemas[] = {"idgen_internal", "idgen"};
  const Oid extension = get_extension_oid("idgen", true);
  if (!OidIsValid(extension)) return InvalidOid;
  for (const char* schema_name : kSchemas) {
    const Oid schema = get_namespace_oid(schema_name, true);
    const Oid relid = OidIsValid(schema) ? get_relname_relid("groups", schema) : InvalidOid;
    // The extension's own table only: not idgen.groups, a view from 0.4.0 on, nor a table that
    // another role put in a schema idgen_internal of a database whose idgen predates it.
    if (OidIsValid(relid) && get_rel_relkind(relid) == RELKIND_RELATION &&
        getExtensionOfObject(RelationRelationId, relid) == extension) {
      return relid;
    }
  }
  return InvalidOid;
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
  return registry_value("SELECT g.name FROM %s g WHERE g.group_id OPERATOR(pg_catalog.=) $1",
                        INT4OID, Int32GetDatum(group_id), is_null);
}

Datum registered_group_target(int group_id, bool* is_null) {
  // Only a table that exists: the event trigger forgets dropped tables, but does not fire in
  // single-user mode or with event_triggers = off.
  return registry_value(
      "SELECT g.target FROM %s g JOIN pg_catalog.pg_class c"
      " ON c.oid OPERATOR(pg_catalog.=) g.target WHERE g.group_id OPERATOR(pg_catalog.=) $1",
      INT4OID, Int32GetDatum(group_id), is_null);
}

Datum register_group(FunctionCallInfo fcinfo) {
  if (!PG_ARGISNULL(2)) require_own_table(PG_GETARG_OID(2));
  // The caller's EXECUTE on idgen.register_group is what lets it register; the function below
  // grants nothing to anyone and is reached only from here, past its EXECUTE check and past the
  // caller's missing USAGE on its schema.
  const Oid registration = registration_function();
  FmgrInfo flinfo;
  fmgr_info(registration, &flinfo);
  LOCAL_FCINFO(inner, 3);
  InitFunctionCallInfoData(*inner, &flinfo, 3, PG_GET_COLLATION(), nullptr, nullptr);
  for (int i = 0; i < 3; ++i) inner->args[i] = fcinfo->args[i];
  const Datum result = FunctionCallInvoke(inner);
  fcinfo->isnull = inner->isnull;
  return result;
}

void forget_cached_groups(Oid relid) noexcept {
  if (relid == InvalidOid || relid == groups_relid) forget_all();
}

// Statement trigger on the registry: every backend drops its cached names when the change commits.
IDGEN_SQL_FUNCTION(idgen_groups_changed) {
  if (!CALLED_AS_TRIGGER(fcinfo)) {
    ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                    errmsg("idgen.groups_changed() must be called as a trigger")));
  }
  const auto* trigger = reinterpret_cast<TriggerData*>(fcinfo->context);
  // The caches watch the registry by oid. On a Citus cluster this trigger fires on each node's
  // copy of the table (a shard with a name of its own), so the invalidation names the registry.
  const Oid groups = groups_table();
  if (OidIsValid(groups)) {
    CacheInvalidateRelcacheByRelid(groups);
  } else {
    CacheInvalidateRelcache(trigger->tg_relation);
  }
  return static_cast<Datum>(0);  // a statement trigger's result is ignored
}

}  // namespace idgen::pg
