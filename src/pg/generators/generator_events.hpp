// What the server-wide generators tell a DBA (docs/operations.md): counters since the server
// started, per generator, in shared memory (ids made, waits, generator mark writes), and one log
// line per event that changes what new ids carry: a start, the end of recovery, a step back of the
// wall clock, ids leading the wall clock by more than idgen.log_lead_threshold, a generator mark
// adopted from a database. Present only when idgen is preloaded.
//
// The per-id part is inline and only counts: one atomic add, and one shared read that says
// whether it is time to look for events (at most every kCheckEveryMs of the server clock). The
// look and its log lines run out of line, after the step and outside any lock, in the one session
// that wins the turn. Every line goes to the server log only (LOG_SERVER_ONLY, never to a
// client, whatever its client_min_messages): they tell when any database of the server made ids,
// which generator_status() shows only to pg_monitor, and the session that happens to log them is
// not the one that can act on them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/stack_safe.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "port/atomics.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

enum class GeneratorKind { snowflake, uuidv7, ulid, distributed_id, distributed_id128 };
constexpr int kGeneratorKinds = 5;

// One generator's counters, on a cache line of their own so that two generators made at once do
// not contend for one line.
struct GeneratorCounters {
  pg_atomic_uint64 ids;          // ids handed out by the server's state
  pg_atomic_uint64 waits;        // steps that waited for the clock (a full ms, the lead bound)
  pg_atomic_uint64 mark_writes;  // generator marks its ids wrote (file, then WAL)
  char padding[64 - 3 * sizeof(pg_atomic_uint64)];
};
IDGEN_STACK_SAFE(GeneratorCounters);

struct SharedGeneratorEvents {
  GeneratorCounters generators[kGeneratorKinds];
  pg_atomic_uint64 check_after_ms;     // the server clock's ms past which an id looks for events
  pg_atomic_uint64 steps_back_logged;  // the clock's count of steps back when last logged
  pg_atomic_uint32 lead_logged;        // 1: the lead above the threshold is logged
};
IDGEN_STACK_SAFE(SharedGeneratorEvents);
extern SharedGeneratorEvents* shared_generator_events IDGEN_HIDDEN;  // set when preloaded

// The shared memory (pg/generators/runtime.cpp requests it), and, in the postmaster under
// AddinShmemInitLock, its placement: zero when new (a start, a backend crash's re-initialisation).
std::size_t generator_events_shmem_size();
void attach_generator_events();

// Out of line: looks for a step back of the wall clock and for ids leading it by more than
// idgen.log_lead_threshold, and logs each once. id_ms is the time (Unix ms) of the id just made.
void log_generator_events(std::int64_t clock_ms, std::int64_t id_ms);

inline GeneratorCounters& counters_of(GeneratorKind kind) {
  return shared_generator_events->generators[static_cast<int>(kind)];
}

// After a server-wide step handed out an id of time id_ms at server clock ms clock_ms, wrote
// (or not) a mark for it: counts it, and looks for events when it is time.
inline void count_server_id(GeneratorKind kind, std::int64_t clock_ms, std::int64_t id_ms,
                            bool wrote_mark) {
  GeneratorCounters& counters = counters_of(kind);
  (void)pg_atomic_fetch_add_u64(&counters.ids, 1);
  if (wrote_mark) (void)pg_atomic_fetch_add_u64(&counters.mark_writes, 1);
  if (clock_ms >
      static_cast<std::int64_t>(pg_atomic_read_u64(&shared_generator_events->check_after_ms))) {
    log_generator_events(clock_ms, id_ms);
  }
}

// A server-wide step that must wait for the clock.
inline void count_server_wait(GeneratorKind kind) {
  (void)pg_atomic_fetch_add_u64(&counters_of(kind).waits, 1);
}

// generator_status()'s counters of one generator (since the server started), and the clock's
// steps back.
struct GeneratorCounts {
  std::int64_t ids;
  std::int64_t waits;
  std::int64_t clock_steps_back;
  std::int64_t mark_writes;
};
IDGEN_STACK_SAFE(GeneratorCounts);
GeneratorCounts generator_counts(GeneratorKind kind);

// In the postmaster, after the shared memory is placed: scope, node number, mark and lead.
void log_generators_start(std::int64_t mark_ms);
// At the end of recovery (crash recovery, a standby's promotion): the mark replayed and the lead.
void log_generators_after_recovery(std::int64_t mark_ms);
// A database's generator mark adopted (pg/generators/database_mark.hpp), after the clock moved
// past it: another server's (origin, a system identifier; with a warning about node numbers when
// this server makes Snowflake ids, whose uniqueness then depends on them), or this server's own
// (origin 0), above the server's mark.
void log_adopted_mark(std::int64_t mark_ms, std::uint64_t origin);

}  // namespace idgen::pg
