// See steps.hpp.
#include "pg/generators/steps.hpp"

#include "core/arith.hpp"
#include "core/clock.hpp"
#include "core/stack_safe.hpp"
#include "pg/generators/database_mark.hpp"
#include "pg/generators/generator_events.hpp"
#include "pg/generators/generator_mark.hpp"
#include "pg/generators/generator_state.hpp"
#include "pg/generators/mark_scan.hpp"
#include "pg/generators/server_clock.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "port/atomics.h"
#include "storage/spin.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

std::int64_t server_clock_now_ms() { return floor_div(server_clock_now_us(), 1000); }

// After the server's state made an id of time id_ms at clock ms clock_ms, before it is returned:
// the durable mark covers it, and this database's mark records it.
// Returns whether it wrote a generator mark.
bool hand_out(std::int64_t clock_ms, std::int64_t id_ms) {
  const bool wrote_mark = cover_id_time(clock_ms, id_ms);
  record_in_database_mark(id_ms);
  return wrote_mark;
}

// Before a step on the server's state: the mark a start must find is known (a start without its
// file reads every database's mark first), and a mark restored into this database counts. Both
// are once per backend.
void before_server_step() {
  await_start_mark();
  adopt_database_mark();
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
  SpinLockAcquire(&shared_generators->lock);
  const Result result = attempt(*state);
  SpinLockRelease(&shared_generators->lock);
  return result;
}
#endif

// This backend's last view of each packed shared state (used by the lock-free form).
u128 guess_distributed_id = 0;
u128 guess_distributed_id128 = 0;
u128 guess_ulid = 0;

}  // namespace

// The clock is read inside each attempt (inside the lock, or after the state snapshot a swap is
// made against): a reading taken before a long stall must never be applied to a state that other
// sessions moved meanwhile, or a stale "now" could reset the shared generator. The shared state
// reads the server clock (pg/generators/server_clock.hpp), and each id it makes is covered by the
// durable mark before it is returned.

namespace {

// The one shape of every step on the server's state: the mark the start must find is known, the
// step runs as one atomic operation at the server clock (shared(clock_ms) sets clock_ms to the ms
// the successful attempt read), and an id is covered by the mark before it is returned; id_ms(step)
// is the id's time (Unix ms). The generator's counters count the id, or the wait, after it (an id
// whose mark could not be written raised an ERROR and is not counted), and the events an id may
// log are logged there too, outside any lock (pg/generators/generator_events.hpp).
template <GeneratorKind kind, typename Step, typename Shared, typename IdMs>
inline Step server_step(Shared shared_attempt, IdMs id_ms) {
  before_server_step();
  std::int64_t clock_ms = 0;
  const Step step = shared_attempt(clock_ms);
  if (step.kind == decltype(step.kind)::id) {
    const std::int64_t ms = id_ms(step);
    const bool wrote_mark = hand_out(clock_ms, ms);
    count_server_id(kind, clock_ms, ms, wrote_mark);
  } else if (step.kind == decltype(step.kind)::wait) {
    count_server_wait(kind);
  }
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
  if (GeneratorStates* local = local_generator_states()) {
    return distributed_id::step(local->distributed_id, q, clock::now_unix_ms());
  }
  return server_step<GeneratorKind::distributed_id, distributed_id::Step>(
      [q](std::int64_t& clock_ms) {
        return shared_step<distributed_id::Step>(
            &shared_generators->distributed_id, guess_distributed_id, distributed_id::unpack,
            distributed_id::pack, [q, &clock_ms](distributed_id::State& s) {
              clock_ms = server_clock_now_ms();
              return distributed_id::step(s, q, clock_ms);
            });
      },
      [](const distributed_id::Step& step) { return step.ts + distributed_id::kEpochUnixMs; });
}

distributed_id128::Step step_distributed_id128(u128 q) {
  if (GeneratorStates* local = local_generator_states()) {
    return distributed_id128::step(local->distributed_id128, q, clock::now_unix_ms());
  }
  return server_step<GeneratorKind::distributed_id128, distributed_id128::Step>(
      [q](std::int64_t& clock_ms) {
        return shared_step<distributed_id128::Step>(
            &shared_generators->distributed_id128, guess_distributed_id128,
            distributed_id128::unpack, distributed_id128::pack,
            [q, &clock_ms](distributed_id128::State& s) {
              clock_ms = server_clock_now_ms();
              return distributed_id128::step(s, q, clock_ms);
            });
      },
      [](const distributed_id128::Step& step) {
        return step.ts + distributed_id128::kEpochUnixMs;
      });
}

rfc9562::V7Step step_uuidv7() {
  if (GeneratorStates* local = local_generator_states()) {
    const rfc9562::Lead lead = local == &session_generator_states.private_state
                                   ? rfc9562::Lead::unbounded
                                   : rfc9562::Lead::bounded;
    return rfc9562::advance_v7(local->uuidv7, clock::now_unix_us(), lead);
  }
  // Lock-free everywhere: the state is one 64-bit word, and the clock is read in µs.
  return server_step<GeneratorKind::uuidv7, rfc9562::V7Step>(
      [](std::int64_t& clock_ms) {
        return shared_step64<rfc9562::V7Step>(
            &shared_generators->uuidv7, [&clock_ms](std::uint64_t last) {
              const std::int64_t now_us = server_clock_now_us();
              clock_ms = floor_div(now_us, 1000);
              return rfc9562::next_v7_value(last, now_us, rfc9562::Lead::bounded);
            });
      },
      [](const rfc9562::V7Step& step) { return static_cast<std::int64_t>(step.value >> 12); });
}

ulid::Step step_ulid(const std::uint8_t* fresh) {
  if (GeneratorStates* local = local_generator_states()) {
    return ulid::step(local->ulid, clock::now_unix_ms(), fresh);
  }
  return server_step<GeneratorKind::ulid, ulid::Step>(
      [fresh](std::int64_t& clock_ms) {
        return shared_step<ulid::Step>(&shared_generators->ulid, guess_ulid, ulid::unpack,
                                       ulid::pack, [fresh, &clock_ms](ulid::State& s) {
                                         clock_ms = server_clock_now_ms();
                                         return ulid::step(s, clock_ms, fresh);
                                       });
      },
      [](const ulid::Step& step) { return static_cast<std::int64_t>(step.ms); });
}

snowflake::Step step_snowflake() {
  if (GeneratorStates* local = local_generator_states(false)) {
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
  return server_step<GeneratorKind::snowflake, snowflake::Step>(
      [](std::int64_t& clock_ms) {
        return shared_step64<snowflake::Step>(
            &shared_generators->snowflake, [&clock_ms](std::uint64_t last) {
              clock_ms = server_clock_now_ms();
              return snowflake::next_value(last, clock_ms, snowflake::Lead::bounded);
            });
      },
      [](const snowflake::Step& step) {
        return static_cast<std::int64_t>(step.value >> snowflake::kSequenceBits) +
               snowflake::kEpochUnixMs;
      });
}

void reserve_ids_through(std::int64_t id_ms) {
  if (shared_generators == nullptr) {
    reserve_in_database_mark(id_ms);
    return;
  }
  before_server_step();
  adopt_mark(id_ms);
  // The mark is made durable before the call returns, whatever the clock reads now: a restart
  // starts the clock after it.
  cover_id_time(server_clock_now_ms(), id_ms);
  reserve_in_database_mark(durable_mark_ms());
}

}  // namespace idgen::pg
