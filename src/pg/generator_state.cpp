// See generator_state.hpp.
#include "pg/generator_state.hpp"

#include "core/clock.hpp"
#include "core/random.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {
namespace {

struct GeneratorStates {
  distributed_id::State distributed_id;
  distributed_id128::State distributed_id128;
  rfc9562::V7State uuidv7;
};

struct SharedGenerators {
  slock_t lock;  // held only for one core step: a few dozen instructions, no calls out
  GeneratorStates states;
  pg_atomic_uint64 uuidv7_last;  // lock-free: one compare-and-swap per id
};

GeneratorStates backend_states;
GeneratorStates private_states;
SharedGenerators* shared = nullptr;  // set in every process when preloaded (inherited by fork)

shmem_startup_hook_type previous_startup_hook = nullptr;
#if PG_VERSION_NUM >= 150000
shmem_request_hook_type previous_request_hook = nullptr;
#endif

void request_shared_memory() {
#if PG_VERSION_NUM >= 150000
  if (previous_request_hook != nullptr) previous_request_hook();
#endif
  RequestAddinShmemSpace(MAXALIGN(sizeof(SharedGenerators)));
}

void attach_shared_memory() {
  if (previous_startup_hook != nullptr) previous_startup_hook();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  bool found = false;
  auto* mem = static_cast<SharedGenerators*>(
      ShmemInitStruct("idgen generator states", sizeof(SharedGenerators), &found));
  if (!found) {
    SpinLockInit(&mem->lock);
    mem->states = GeneratorStates{};
    pg_atomic_init_u64(&mem->uuidv7_last, 0);
  }
  shared = mem;
  LWLockRelease(AddinShmemInitLock);
}

// The session's own state, or nullptr for the shared one.
GeneratorStates* local_states() {
  if (clock::is_pinned() || random::is_deterministic()) return &private_states;
  return shared == nullptr ? &backend_states : nullptr;
}

// Runs step(states) on the session's state; on the shared one under its spinlock.
template <typename Step>
auto run_step(Step step) {
  if (GeneratorStates* local = local_states()) return step(*local);
  SpinLockAcquire(&shared->lock);
  auto result = step(shared->states);
  SpinLockRelease(&shared->lock);
  return result;
}

}  // namespace

void install_shared_generator_state() {
  if (!process_shared_preload_libraries_in_progress) return;
#if PG_VERSION_NUM >= 150000
  previous_request_hook = shmem_request_hook;
  shmem_request_hook = request_shared_memory;
#else
  request_shared_memory();
#endif
  previous_startup_hook = shmem_startup_hook;
  shmem_startup_hook = attach_shared_memory;
}

const char* generator_scope_name() { return shared != nullptr ? "server" : "backend"; }

void reset_private_generator_state() { private_states = GeneratorStates{}; }

distributed_id::Step step_distributed_id(std::uint64_t q, std::int64_t now_unix_ms) {
  return run_step(
      [&](GeneratorStates& s) { return distributed_id::step(s.distributed_id, q, now_unix_ms); });
}

distributed_id128::Step step_distributed_id128(u128 q, std::int64_t now_unix_ms) {
  return run_step([&](GeneratorStates& s) {
    return distributed_id128::step(s.distributed_id128, q, now_unix_ms);
  });
}

bool step_uuidv7(std::int64_t now_unix_us, std::uint64_t* value) {
  return run_step(
      [&](GeneratorStates& s) { return rfc9562::advance_v7(s.uuidv7, now_unix_us, value); });
}

}  // namespace idgen::pg
