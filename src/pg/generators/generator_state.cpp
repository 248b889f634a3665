// See generator_state.hpp.
#include "pg/generators/generator_state.hpp"

#include "core/arith.hpp"
#include "core/clock.hpp"
#include "core/random.hpp"
#include "core/stack_safe.hpp"
#include "pg/generators/database_mark.hpp"
#include "pg/generators/generator_mark.hpp"
#include "pg/generators/mark_scan.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/server_clock.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "storage/shmem.h"
#include "storage/spin.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

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

GeneratorStates backend_states;
GeneratorStates private_states;
SharedGenerators* shared = nullptr;  // set in every process when preloaded (inherited by fork)

// The session's own state, or nullptr for the shared one. A pinned clock or
// idgen.test_random_seed gives the session a state of its own; the random seed only matters to
// generators with random bits (Snowflake ids have none, so it stays on the server's state).
GeneratorStates* local_states(bool random_bits = true) {
  if (clock::is_pinned() || (random_bits && random::is_deterministic())) return &private_states;
  return shared == nullptr ? &backend_states : nullptr;
}

std::int64_t server_clock_now_ms() { return floor_div(server_clock_now_us(), 1000); }

// After the server's state made an id of time id_ms at clock ms clock_ms, before it is returned:
// the durable mark covers it, and this database's mark records it.
void hand_out(std::int64_t clock_ms, std::int64_t id_ms) {
  cover_id_time(clock_ms, id_ms);
  record_in_database_mark(id_ms);
}

// Before a step on the server's state: the mark a start must find is known (a start without its
// file reads every database's mark first), and a mark restored into this database counts. Both
// are once per backend.
void before_server_step() {
  await_start_mark();
  adopt_database_mark();
}

GeneratorScope scope_of(const GeneratorStates* local) {
  if (local == nullptr) return GeneratorScope::server;
  return local == &private_states ? GeneratorScope::private_state : GeneratorScope::backend;
}

#ifdef IDGEN_LOCK_FREE_128
// Advances a packed shared state by compare-and-swap. `guess` is this backend's last view of the
// word: right when no other session moved it since, which makes the first swap succeed; a failed
// swap returns the true value and the step is redone from it. A step that publishes nothing (wait,
// out of range) is confirmed against a fresh read, so a stale view never causes a needless wait.
template <typename Result, typename State, typename Attempt>
Result shared_step(u128* word, u128& guess, State (*unpack)(u128), u128 (*pack)(const State&),
                   Attempt attempt) {
  for (;;) {
    State state = unpack(guess);
    const Result result = attempt(state);
    if (result.kind != decltype(result.kind)::id) {
      const u128 now = __sync_val_compare_and_swap(word, guess, guess);
      if (now == guess) return result;
      guess = now;
      continue;
    }
    const u128 next = pack(state);
    const u128 seen = __sync_val_compare_and_swap(word, guess, next);
    if (seen == guess) {
      guess = next;
      return result;
    }
    guess = seen;
  }
}

#else
// The same step under the spinlock, with the same parameters (the guess and the packing are the
// lock-free form's), so that each generator has one call site for both forms.
template <typename Result, typename State, typename Attempt>
Result shared_step(State* state, u128& /*guess*/, State (* /*unpack*/)(u128),
                   u128 (* /*pack*/)(const State&), Attempt attempt) {
  SpinLockAcquire(&shared->lock);
  const Result result = attempt(*state);
  SpinLockRelease(&shared->lock);
  return result;
}
#endif

// This backend's last view of each packed shared state (used by the lock-free form).
u128 guess_distributed_id = 0;
u128 guess_distributed_id128 = 0;
u128 guess_ulid = 0;

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
  shared = mem;
}

const char* generator_scope_name() { return shared != nullptr ? "server" : "backend"; }

GeneratorScope current_generator_scope() { return scope_of(local_states()); }

GeneratorScope current_snowflake_scope() { return scope_of(local_states(false)); }

std::int64_t snowflake_clock_unix_ms() {
  return local_states(false) == nullptr ? server_clock_now_ms() : clock::now_unix_ms();
}

LastIdTimes last_id_times() {
  const auto ms = [](std::int64_t unix_ms) { return unix_ms * 1000; };
  GeneratorStates states{};
  if (GeneratorStates* local = local_states()) {
    states = *local;
  } else {
    states.uuidv7.last = pg_atomic_read_u64(&shared->uuidv7);
#ifdef IDGEN_LOCK_FREE_128
    // A compare-and-swap that changes nothing reads the word whole.
    states.distributed_id = distributed_id::unpack(
        __sync_val_compare_and_swap(&shared->distributed_id, u128{0}, u128{0}));
    states.distributed_id128 = distributed_id128::unpack(
        __sync_val_compare_and_swap(&shared->distributed_id128, u128{0}, u128{0}));
    states.ulid = ulid::unpack(__sync_val_compare_and_swap(&shared->ulid, u128{0}, u128{0}));
#else
    SpinLockAcquire(&shared->lock);
    states.distributed_id = shared->distributed_id;
    states.distributed_id128 = shared->distributed_id128;
    states.ulid = shared->ulid;
    SpinLockRelease(&shared->lock);
#endif
  }
  const GeneratorStates* snowflake_states = local_states(false);
  const std::uint64_t snowflake = snowflake_states != nullptr
                                      ? snowflake_states->snowflake
                                      : pg_atomic_read_u64(&shared->snowflake);
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
  u128 seen = __sync_val_compare_and_swap(&shared->distributed_id, u128{0}, u128{0});
  while (distributed_id::unpack(seen).last_ts <= after.last_ts) {
    const u128 now =
        __sync_val_compare_and_swap(&shared->distributed_id, seen, distributed_id::pack(after));
    if (now == seen) break;
    seen = now;
  }
#else
  SpinLockAcquire(&shared->lock);
  if (shared->distributed_id.last_ts <= after.last_ts) shared->distributed_id = after;
  SpinLockRelease(&shared->lock);
#endif
}

void reset_private_generator_state() { private_states = GeneratorStates{}; }

// The clock is read inside each attempt (inside the lock, or after the state snapshot a swap is
// made against): a reading taken before a long stall must never be applied to a state that other
// sessions moved meanwhile, or a stale "now" could reset the shared generator. The shared state
// reads the server clock (pg/generators/server_clock.hpp), and each id it makes is covered by the
// durable mark before it is returned.

namespace {

// The one shape of every step on the server's state: the mark the start must find is known, the
// step runs as one atomic operation at the server clock (shared(clock_ms) sets clock_ms to the ms
// the successful attempt read), and an id is covered by the mark before it is returned; id_ms(step)
// is the id's time (Unix ms).
template <typename Step, typename Shared, typename IdMs>
inline Step server_step(Shared shared_attempt, IdMs id_ms) {
  before_server_step();
  std::int64_t clock_ms = 0;
  const Step step = shared_attempt(clock_ms);
  if (step.kind == decltype(step.kind)::id) hand_out(clock_ms, id_ms(step));
  return step;
}

// Advances a shared 64-bit word by compare-and-swap: next(last) is the core step from the word's
// value, at the server clock it reads. A wait or out-of-range step publishes nothing and is
// returned as it is: `last` was read fresh on entry and the clock after it, so it never rests on a
// stale view, and the caller's next step reads both again.
template <typename Step, typename Next>
inline Step shared_step64(pg_atomic_uint64* word, Next next) {
  std::uint64_t last = pg_atomic_read_u64(word);
  for (;;) {
    const Step step = next(last);
    if (step.kind != decltype(step.kind)::id) return step;
    // On failure `last` is reloaded with the current word and the step is computed again.
    if (pg_atomic_compare_exchange_u64(word, &last, step.value)) return step;
  }
}

}  // namespace

distributed_id::Step step_distributed_id(std::uint64_t q) {
  if (GeneratorStates* local = local_states()) {
    return distributed_id::step(local->distributed_id, q, clock::now_unix_ms());
  }
  return server_step<distributed_id::Step>(
      [q](std::int64_t& clock_ms) {
        return shared_step<distributed_id::Step>(&shared->distributed_id, guess_distributed_id,
                                                 distributed_id::unpack, distributed_id::pack,
                                                 [q, &clock_ms](distributed_id::State& s) {
                                                   clock_ms = server_clock_now_ms();
                                                   return distributed_id::step(s, q, clock_ms);
                                                 });
      },
      [](const distributed_id::Step& step) { return step.ts + distributed_id::kEpochUnixMs; });
}

distributed_id128::Step step_distributed_id128(u128 q) {
  if (GeneratorStates* local = local_states()) {
    return distributed_id128::step(local->distributed_id128, q, clock::now_unix_ms());
  }
  return server_step<distributed_id128::Step>(
      [q](std::int64_t& clock_ms) {
        return shared_step<distributed_id128::Step>(
            &shared->distributed_id128, guess_distributed_id128, distributed_id128::unpack,
            distributed_id128::pack, [q, &clock_ms](distributed_id128::State& s) {
              clock_ms = server_clock_now_ms();
              return distributed_id128::step(s, q, clock_ms);
            });
      },
      [](const distributed_id128::Step& step) {
        return step.ts + distributed_id128::kEpochUnixMs;
      });
}

rfc9562::V7Step step_uuidv7() {
  if (GeneratorStates* local = local_states()) {
    const rfc9562::Lead lead =
        local == &private_states ? rfc9562::Lead::unbounded : rfc9562::Lead::bounded;
    return rfc9562::advance_v7(local->uuidv7, clock::now_unix_us(), lead);
  }
  // Lock-free everywhere: the state is one 64-bit word, and the clock is read in µs.
  return server_step<rfc9562::V7Step>(
      [](std::int64_t& clock_ms) {
        return shared_step64<rfc9562::V7Step>(&shared->uuidv7, [&clock_ms](std::uint64_t last) {
          const std::int64_t now_us = server_clock_now_us();
          clock_ms = floor_div(now_us, 1000);
          return rfc9562::next_v7_value(last, now_us, rfc9562::Lead::bounded);
        });
      },
      [](const rfc9562::V7Step& step) { return static_cast<std::int64_t>(step.value >> 12); });
}

ulid::Step step_ulid(const std::uint8_t* fresh) {
  if (GeneratorStates* local = local_states()) {
    return ulid::step(local->ulid, clock::now_unix_ms(), fresh);
  }
  return server_step<ulid::Step>(
      [fresh](std::int64_t& clock_ms) {
        return shared_step<ulid::Step>(&shared->ulid, guess_ulid, ulid::unpack, ulid::pack,
                                       [fresh, &clock_ms](ulid::State& s) {
                                         clock_ms = server_clock_now_ms();
                                         return ulid::step(s, clock_ms, fresh);
                                       });
      },
      [](const ulid::Step& step) { return static_cast<std::int64_t>(step.ms); });
}

snowflake::Step step_snowflake() {
  if (GeneratorStates* local = local_states(false)) {
    // Only a pinned clock gives Snowflake a session state. It could carry into later ms as the
    // server's generator does; it stops at the pinned ms's 4096 ids instead, by choice, so that a
    // test can fill one ms and see the documented refusal (docs/snowflake.md).
    const snowflake::Step step =
        snowflake::next_value(local->snowflake, clock::now_unix_ms(), snowflake::Lead::none);
    if (step.kind == snowflake::StepKind::id) local->snowflake = step.value;
    return step;
  }
  // One 64-bit word, lock-free as UUIDv7's; ids may lead the clock by up to 1 s, which the mark
  // covers (hand_out).
  return server_step<snowflake::Step>(
      [](std::int64_t& clock_ms) {
        return shared_step64<snowflake::Step>(&shared->snowflake, [&clock_ms](std::uint64_t last) {
          clock_ms = server_clock_now_ms();
          return snowflake::next_value(last, clock_ms, snowflake::Lead::bounded);
        });
      },
      [](const snowflake::Step& step) {
        return static_cast<std::int64_t>(step.value >> snowflake::kSequenceBits) +
               snowflake::kEpochUnixMs;
      });
}

}  // namespace idgen::pg
