// The time-ordered generators' steps: each step_* function reads the clock and runs one core step
// on the state the session uses (pg/generators/generator_state.hpp) as one atomic operation, and
// on the server's state covers the id with the durable mark (pg/generators/generator_mark.hpp)
// before it is returned. Waiting between steps is the caller's (pg/generators/wait.hpp), so no
// lock is held while a session sleeps.
#pragma once

#include <cstdint>

#include "core/distributed_id.hpp"
#include "core/rfc9562.hpp"
#include "core/snowflake.hpp"
#include "core/uint128.hpp"
#include "core/ulid.hpp"

namespace idgen::pg {

distributed_id::Step step_distributed_id(std::uint64_t q);
distributed_id128::Step step_distributed_id128(u128 q);
// One UUIDv7 step: the next (unix_ts_ms << 12 | rand_a) value, or "wait" when it would lead the
// clock by more than rfc9562::kMaxLeadSteps. The bound holds in backend and server scope; the
// private scope keeps the unbounded rule, since a pinned clock never moves (a bound would wait
// forever) and its state is the session's own, so its lead misleads nobody else.
rfc9562::V7Step step_uuidv7();
// One ULID step; fresh holds ulid::kRandomBytes random bytes for an id that starts a new ms.
ulid::Step step_ulid(const std::uint8_t* fresh);
// One Snowflake step: the next (ms since epoch << 12) | sequence, on the state that
// current_snowflake_scope() names. Only meaningful in server and private scope: in backend scope
// every backend would count from the same values.
snowflake::Step step_snowflake();

// Moves the server's generators past id_ms (Unix ms), the time of an id another generator made
// (idgen.snowflake_reserve_through): as past a mark adopted from a restored database, the server
// clock moves after it (so every generator's next id has a later time), and before it returns the
// durable mark covers it and this database's mark records it, so no restart, crash, failover,
// restore or upgrade takes the generators back below it. In backend scope (idgen not preloaded)
// only this database's mark records it; the server's generators adopt it before their first id
// here once idgen is preloaded. The caller checks that the transaction may write.
void reserve_ids_through(std::int64_t id_ms);

}  // namespace idgen::pg
