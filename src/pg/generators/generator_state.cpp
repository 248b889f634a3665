// See generator_state.hpp.
#include "pg/generators/generator_state.hpp"

#include "core/arith.hpp"
#include "core/clock.hpp"
#include "core/random.hpp"
#include "core/stack_safe.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/server_clock.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "storage/shmem.h"
#include "storage/spin.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

SessionGeneratorStates session_generator_states;
SharedGenerators* shared_generators = nullptr;

namespace {

std::int64_t server_clock_now_ms() { return floor_div(server_clock_now_us(), 1000); }

GeneratorScope scope_of(const GeneratorStates* local) {
  if (local == nullptr) return GeneratorScope::server;
  return local == &session_generator_states.private_state ? GeneratorScope::private_state
                                                          : GeneratorScope::backend;
}

}  // namespace

std::size_t generator_state_shmem_size() { return MAXALIGN(sizeof(SharedGenerators)); }

void attach_generator_state() {
  bool found = false;
  auto* mem = static_cast<SharedGenerators*>(
      ShmemInitStruct("idgen generator states", sizeof(SharedGenerators), &found));
  if (!found) {
    pg_atomic_init_u64(&mem->uuidv7, 0);
    pg_atomic_init_u64(&mem->snowflake, 0);
#ifdef IDGEN_LOCK_FREE_128
    mem->distributed_id = distributed_id::pack(distributed_id::State{});
    mem->distributed_id128 = distributed_id128::pack(distributed_id128::State{});
    mem->ulid = ulid::pack(ulid::State{});
#else
    SpinLockInit(&mem->lock);
    mem->distributed_id = distributed_id::State{};
    mem->distributed_id128 = distributed_id128::State{};
    mem->ulid = ulid::State{};
#endif
  }
  shared_generators = mem;
}

const char* generator_scope_name() { return shared_generators != nullptr ? "server" : "backend"; }

GeneratorScope current_generator_scope() { return scope_of(local_generator_states()); }

GeneratorScope current_snowflake_scope() { return scope_of(local_generator_states(false)); }

std::int64_t snowflake_clock_unix_ms() {
  return local_generator_states(false) == nullptr ? server_clock_now_ms() : clock::now_unix_ms();
}

LastIdTimes last_id_times() {
  const auto ms = [](std::int64_t unix_ms) { return unix_ms * 1000; };
  GeneratorStates states{};
  if (GeneratorStates* local = local_generator_states()) {
    states = *local;
  } else {
    states.uuidv7.last = pg_atomic_read_u64(&shared_generators->uuidv7);
#ifdef IDGEN_LOCK_FREE_128
    // A compare-and-swap that changes nothing reads the word whole.
    states.distributed_id = distributed_id::unpack(
        __sync_val_compare_and_swap(&shared_generators->distributed_id, u128{0}, u128{0}));
    states.distributed_id128 = distributed_id128::unpack(
        __sync_val_compare_and_swap(&shared_generators->distributed_id128, u128{0}, u128{0}));
    states.ulid =
        ulid::unpack(__sync_val_compare_and_swap(&shared_generators->ulid, u128{0}, u128{0}));
#else
    SpinLockAcquire(&shared_generators->lock);
    states.distributed_id = shared_generators->distributed_id;
    states.distributed_id128 = shared_generators->distributed_id128;
    states.ulid = shared_generators->ulid;
    SpinLockRelease(&shared_generators->lock);
#endif
  }
  const GeneratorStates* snowflake_states = local_generator_states(false);
  const std::uint64_t snowflake = snowflake_states != nullptr
                                      ? snowflake_states->snowflake
                                      : pg_atomic_read_u64(&shared_generators->snowflake);
  LastIdTimes times{};
  if (snowflake != 0) {
    times.snowflake_us = ms(static_cast<std::int64_t>(snowflake >> snowflake::kSequenceBits) +
                            snowflake::kEpochUnixMs);
  }
  if (states.uuidv7.last != 0) times.uuidv7_us = rfc9562::v7_value_unix_us(states.uuidv7.last);
  if (states.ulid.started) times.ulid_us = ms(static_cast<std::int64_t>(states.ulid.ms));
  if (states.distributed_id.last_ts != 0) {
    times.distributed_id_us = ms(states.distributed_id.last_ts + distributed_id::kEpochUnixMs);
  }
  if (states.distributed_id128.last_ts != 0) {
    times.distributed_id128_us =
        ms(states.distributed_id128.last_ts + distributed_id128::kEpochUnixMs);
  }
  return times;
}

void place_distributed_id_after(std::int64_t mark_ms) {
  const distributed_id::State after{mark_ms - distributed_id::kEpochUnixMs,
                                    distributed_id::kRandomMax};
#ifdef IDGEN_LOCK_FREE_128
  u128 seen = __sync_val_compare_and_swap(&shared_generators->distributed_id, u128{0}, u128{0});
  while (distributed_id::unpack(seen).last_ts <= after.last_ts) {
    const u128 now = __sync_val_compare_and_swap(&shared_generators->distributed_id, seen,
                                                 distributed_id::pack(after));
    if (now == seen) break;
    seen = now;
  }
#else
  SpinLockAcquire(&shared_generators->lock);
  if (shared_generators->distributed_id.last_ts <= after.last_ts)
    shared_generators->distributed_id = after;
  SpinLockRelease(&shared_generators->lock);
#endif
}

void reset_private_generator_state() { session_generator_states.private_state = GeneratorStates{}; }

}  // namespace idgen::pg
