// Where the time-ordered generators (DistributedId, DistributedId128, UUIDv7) keep their state.
//
//  - backend: each backend has its own state, like one process of the reference library (the
//    default);
//  - server: with idgen in shared_preload_libraries, one state in shared memory under a spinlock,
//    so the whole server is one generator and ids increase across sessions in generation order;
//  - private: a session with a pinned clock (idgen.fixed_clock) or a test seed
//    (idgen.test_random_seed) uses a state of its own and never reads or moves the other two.
//
// Each step_* function runs one core step on the right state as one atomic operation; waiting
// between steps is the caller's (pg/wait.hpp), so no lock is held while a session sleeps.
#pragma once

#include <cstdint>

#include "core/distributed_id.hpp"
#include "core/rfc9562.hpp"
#include "core/uint128.hpp"

namespace idgen::pg {

// From _PG_init: while idgen is being preloaded, reserve and initialise the shared state.
void install_shared_generator_state();

// "server" when the shared state exists, else "backend".
const char* generator_scope_name();

// Forget the private state (a test run starts from a fresh generator).
void reset_private_generator_state();

distributed_id::Step step_distributed_id(std::uint64_t q, std::int64_t now_unix_ms);
distributed_id128::Step step_distributed_id128(u128 q, std::int64_t now_unix_ms);
bool step_uuidv7(std::int64_t now_unix_us, std::uint64_t* value);

}  // namespace idgen::pg
