// Where the time-ordered generators (DistributedId, DistributedId128, UUIDv7) keep their state.
//
//  - backend: each backend has its own state, like one process of the reference library (the
//    default);
//  - server: with idgen in shared_preload_libraries, one state in shared memory, so the whole
//    server is one generator and ids increase across sessions in generation order. It reads the
//    server clock and never hands out an id the durable mark does not cover, so its ids keep
//    increasing across restarts, crashes, failover and clock steps
//    (pg/generators/server_clock.hpp, pg/generators/generator_mark.hpp). Each state is one word
//    advanced by compare-and-swap (64 bits for UUIDv7; 128 bits with cmpxchg16b for the others on
//    x86-64, elsewhere a spinlock held for one core step);
//  - private: a session with a pinned clock (idgen.fixed_clock) or a test seed
//    (idgen.test_random_seed) uses a state of its own and never reads or moves the other two.
//    Snowflake, whose ids have no random bits, uses its private state only on a pinned clock.
//
// Each step_* function reads the clock and runs one core step on the right state as one atomic
// operation; waiting between steps is the caller's (pg/generators/wait.hpp), so no lock is held
// while a session sleeps.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/distributed_id.hpp"
#include "core/rfc9562.hpp"
#include "core/snowflake.hpp"
#include "core/stack_safe.hpp"
#include "core/uint128.hpp"
#include "core/ulid.hpp"

namespace idgen::pg {

// The shared memory of the server's state (pg/generators/runtime.cpp requests it), and, in the
// postmaster under AddinShmemInitLock, its placement and first initialisation.
std::size_t generator_state_shmem_size();
void attach_generator_state();

// "server" when the shared state exists, else "backend".
const char* generator_scope_name();

enum class GeneratorScope { backend, server, private_state };
// The state this session's next step uses.
GeneratorScope current_generator_scope();
// The state this session's next Snowflake step uses: private only on a pinned clock.
GeneratorScope current_snowflake_scope();
// The clock that state's steps read, in Unix ms: the server clock for the server's state
// (pg/generators/server_clock.hpp), else the session's clock. A wait for Snowflake's next ms
// watches it.
std::int64_t snowflake_clock_unix_ms();

// What idgen.generator_status() shows of the state the session's next step uses (Snowflake's by
// current_snowflake_scope()): the time (Unix µs) of each generator's last id, 0 before the first.
struct LastIdTimes {
  std::int64_t snowflake_us;
  std::int64_t uuidv7_us;
  std::int64_t ulid_us;
  std::int64_t distributed_id_us;
  std::int64_t distributed_id128_us;
};
IDGEN_STACK_SAFE(LastIdTimes);
LastIdTimes last_id_times();

// Places the server's DistributedId state after an id of time mark_ms (Unix ms), as if it had just
// made one there with its random part used up: its next id has a later timestamp. Its timestamp
// trails the clock by the reference library's leeway, so a clock started after the generator
// mark alone would not take it past the ids the mark covers (pg/generators/generator_mark.hpp).
// Only when preloaded.
void place_distributed_id_after(std::int64_t mark_ms);

// Forget the private state (a test run starts from a fresh generator).
void reset_private_generator_state();

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

}  // namespace idgen::pg
