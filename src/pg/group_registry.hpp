// The group registry (table idgen_internal.groups) as the generators see it: name -> group id,
// cached per backend and dropped whenever the table changes anywhere (its trigger sends a relcache
// invalidation, which reaches every backend at commit).
#pragma once

#include "pg/postgres.hpp"

namespace idgen::pg {

// The group id of name: its registered id, else the CRC-12 of its UTF-8 bytes.
int group_id_of_name(text* name);

// The CRC-12 of a name's UTF-8 bytes, whatever the database encoding.
int crc12_of_name(text* name);

// The registered name (text) and the registered, existing table (regclass) of a group id;
// *is_null when there is none.
Datum registered_group_name(int group_id, bool* is_null);
Datum registered_group_target(int group_id, bool* is_null);

// idgen.register_group(name, group_id, target) with fcinfo's arguments: refuses a target that is
// not an existing table of the caller's (a group's target is where group_target() routes its ids,
// so a role must not point a group at a table it does not own, or at an oid no table has yet),
// then registers through idgen_internal.register_group, which writes the registry with its
// owner's rights.
Datum register_group(FunctionCallInfo fcinfo);

// The oid of the registry table, InvalidOid while the extension is being dropped.
Oid groups_table();

// Empties the cache when relid is the registry, or for InvalidOid (any relation may have changed).
// Called from the relcache callback (cache_invalidation.hpp), so it only marks memory.
void forget_cached_groups(Oid relid) noexcept;

}  // namespace idgen::pg
