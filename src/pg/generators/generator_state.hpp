// Where the time-ordered generators (DistributedId, DistributedId128, UUIDv7) keep their state.
//
//  - backend: each backend has its own state, like one process of the reference library (the
//    default);
//  - server: with idgen in shared_preload_libraries, one state in shared memory, so the whole
//    server is one generator and ids increase across sessions in generation order. Its steps
//    read the server clock and never hand out an id the durable mark does not cover, so its ids
//    keep increasing across restarts, crashes, failover and clock steps
//    (pg/generators/steps.hpp). Each state is one word
//    advanced by compare-and-swap (64 bits for UUIDv7; 128 bits with cmpxchg16b for the others on
//    x86-64, elsewhere a spinlock held for one core step);
//  - private: a session with a pinned clock (idgen.fixed_clock) or a test seed
//    (idgen.test_random_seed) uses a state of its own and never reads or moves the other two.
//    Snowflake, whose ids have no random bits, uses its private state only on a pinned clock.
//
// The steps themselves are in pg/generators/steps.hpp, a layer above this file and the mark, which
// only calls down: the mark's adoption places DistributedId's state here
// (place_distributed_id_after).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/clock.hpp"
#include "core/distributed_id.hpp"
#include "core/random.hpp"
#include "core/rfc9562.hpp"
#include "core/snowflake.hpp"
#include "core/stack_safe.hpp"
#include "core/uint128.hpp"
#include "core/ulid.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "port/atomics.h"
#include "storage/spin.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

struct GeneratorStates {
  distributed_id::State distributed_id;
  distributed_id128::State distributed_id128;
  rfc9562::V7State uuidv7;
  ulid::State ulid;
  std::uint64_t snowflake = 0;  // (ms since epoch << 12) | sequence of the last id
};
IDGEN_STACK_SAFE(GeneratorStates);

// On x86-64 with cmpxchg16b the two 128-bit states are lock-free like UUIDv7's: each packs into
// one 16-byte word advanced by compare-and-swap, so no session ever waits behind a preempted lock
// holder. Elsewhere a spinlock guards them.
#if defined(__x86_64__) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
#define IDGEN_LOCK_FREE_128 1
#endif

struct SharedGenerators {
  pg_atomic_uint64 uuidv7;     // (unix_ts_ms << 12) | rand_a of the last id
  pg_atomic_uint64 snowflake;  // (ms since epoch << 12) | sequence of the last id
#ifdef IDGEN_LOCK_FREE_128
  alignas(16) u128 distributed_id;     // distributed_id::pack(state)
  alignas(16) u128 distributed_id128;  // distributed_id128::pack(state)
  alignas(16) u128 ulid;               // ulid::pack(state)
#else
  slock_t lock;  // held only for one core step: a few dozen instructions, no calls out
  distributed_id::State distributed_id;
  distributed_id128::State distributed_id128;
  ulid::State ulid;
#endif
};
IDGEN_STACK_SAFE(SharedGenerators);

// The backend's state and the private one, in one object: the compiler then knows their
// addresses apart, so a step that asks which of the two it was given costs nothing at run time.
struct SessionGeneratorStates {
  GeneratorStates backend;
  GeneratorStates private_state;
};
IDGEN_STACK_SAFE(SessionGeneratorStates);

// The session's states, and the server's in shared memory (set in every process when preloaded,
// inherited by fork). The steps (pg/generators/steps.hpp) read them directly.
extern SessionGeneratorStates session_generator_states IDGEN_HIDDEN;
extern SharedGenerators* shared_generators IDGEN_HIDDEN;

// The session's own state, or nullptr for the shared one. A pinned clock or
// idgen.test_random_seed gives the session a state of its own; the random seed only matters to
// generators with random bits (Snowflake ids have none, so it stays on the server's state).
inline GeneratorStates* local_generator_states(bool random_bits = true) {
  if (clock::is_pinned() || (random_bits && random::is_deterministic())) {
    return &session_generator_states.private_state;
  }
  return shared_generators == nullptr ? &session_generator_states.backend : nullptr;
}

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

}  // namespace idgen::pg
