// One relcache callback and one syscache callback for all of idgen's per-backend caches (the group
// registry's names, the ledger trigger's table shapes and tail queries).
//
// A process has room for 10 relcache callbacks, shared by every loaded module and by logical
// decoding, whose output plugin registers its own in each walsender: a callback per cache left a
// Citus shard move's walsender "out of relcache_callback_list slots" (FATAL). So idgen registers
// exactly one of each, and it calls every cache's forget function (test/lint/glue_rules.py refuses
// a second registration).
#pragma once

namespace idgen::pg {

// Registers the callbacks; once per process, from _PG_init.
void install_cache_invalidation();

}  // namespace idgen::pg
