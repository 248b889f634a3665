// The server-wide generators' clock (docs/durability.md; the rules are in core/server_clock.hpp).
// Present only when idgen is preloaded. It knows nothing of the generator mark: the mark
// (pg/generators/generator_mark.hpp) gives it a floor to start from and raises it when a mark is
// adopted, and reads how long ago it started.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/clock.hpp"
#include "core/server_clock.hpp"
#include "core/stack_safe.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "port/atomics.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// The shared state, each word an int64 stored as its bits. Every server-wide id reads the first,
// so the check below is inline and only the rare case goes out of line.
struct SharedServerClock {
  pg_atomic_uint64 last_us;          // the last reading (core/server_clock.hpp)
  pg_atomic_uint64 slew_base_us;     // the slew base
  pg_atomic_uint64 started_mono_us;  // CLOCK_MONOTONIC when the clock last started after a mark
  // The wall clock minus CLOCK_MONOTONIC as last seen: only a step of the wall clock changes it
  // (NTP's gradual corrections slew both clocks alike), so a step back is told from the clock's
  // own lead after a start or an adopted mark. The steps back seen since the server started, and
  // the size of the last one (µs).
  pg_atomic_uint64 wall_offset_us;
  pg_atomic_uint64 steps_back;
  pg_atomic_uint64 last_step_back_us;
};
IDGEN_STACK_SAFE(SharedServerClock);
extern SharedServerClock* shared_server_clock IDGEN_HIDDEN;  // set in every process when preloaded

std::int64_t server_clock_reading_at(std::int64_t wall_us, std::int64_t last_us);

// The shared memory the clock needs (pg/generators/runtime.cpp requests it).
std::size_t server_clock_shmem_size();
// In the postmaster, under AddinShmemInitLock: places the shared clock and, when it is new,
// starts it at the wall clock or at floor_us (Unix µs), whichever is later.
void attach_server_clock(std::int64_t floor_us);

// The generator clock's reading in Unix µs. Only atomic reads and writes of shared memory, no
// call into PostgreSQL: it may be read inside a generator's compare-and-swap loop or spinlock.
inline std::int64_t server_clock_now_us() {
  const std::int64_t wall = clock::real_now_unix_us();
  const auto last = static_cast<std::int64_t>(pg_atomic_read_u64(&shared_server_clock->last_us));
  if (server_clock::wall_suffices(wall, last) && !server_clock::refresh_due(wall - last)) {
    return wall;
  }
  return server_clock_reading_at(wall, last);
}

// Raises the clock to at least floor_us (Unix µs), now.
void raise_server_clock(std::int64_t floor_us);

// The clock started again (the end of recovery): the time since then starts from now.
void note_server_clock_started();

// Real time (ms, CLOCK_MONOTONIC) since the clock last started.
std::int64_t ms_since_server_clock_started();

// The wall clock's steps back that the clock saw since the server started (at least
// kStepBackMinUs each, seen while something read the clock), and the size of the last one.
struct ServerClockSteps {
  std::int64_t count;
  std::int64_t last_us;
};
IDGEN_STACK_SAFE(ServerClockSteps);
ServerClockSteps server_clock_steps();

struct ServerClockStatus {
  std::int64_t clock_us;  // the generator clock's reading
  std::int64_t wall_us;   // the wall clock's, taken with it
};
IDGEN_STACK_SAFE(ServerClockStatus);
// Only when preloaded.
ServerClockStatus server_clock_status();

}  // namespace idgen::pg
