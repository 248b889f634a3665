// The server-wide generators' clock and their durable mark (docs/durability.md; the rules are in
// core/server_clock.hpp and core/generator_mark.hpp). Present only when idgen is preloaded.
//
// Every id a server-wide generator hands out has a time at most the mark. Before an id passes
// it, the mark is raised: written to a file in the data directory (so a restart and a crash find
// it) and logged in WAL (so a standby replays it, pg/generators/generator_mark.hpp), both before
// the id is returned; the file first, so that a file that cannot be written adds nothing to WAL. A
// server that starts runs the generator clock from after the mark it finds (in the file, in the WAL
// it replays, or, without a file, in its databases: pg/generators/mark_scan.hpp).
#pragma once

#include <cstdint>

#include "core/clock.hpp"
#include "core/generator_mark.hpp"
#include "core/server_clock.hpp"
#include "core/stack_safe.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "port/atomics.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// The shared state, each word an int64 stored as its bits. Every server-wide id reads the first,
// and the third and fourth, so the checks below are inline and only the rare case goes out of
// line.
struct SharedServerClock {
  pg_atomic_uint64 last_us;          // the last reading (core/server_clock.hpp)
  pg_atomic_uint64 slew_base_us;     // the slew base
  pg_atomic_uint64 mark_ms;          // the durable mark, 0 before the first
  pg_atomic_uint64 raise_after_ms;   // the clock reading past which the mark is raised ahead
  pg_atomic_uint64 started_mono_us;  // CLOCK_MONOTONIC when the clock last started after a mark
  pg_atomic_uint32 file_missing;  // 1: the start found no mark file (pg/generators/mark_scan.hpp)
};
IDGEN_STACK_SAFE(SharedServerClock);
extern SharedServerClock* shared_server_clock;  // set in every process when preloaded

std::int64_t server_clock_reading_at(std::int64_t wall_us, std::int64_t last_us);
void raise_mark_for(std::int64_t clock_ms, std::int64_t id_ms, bool covered);

// From _PG_init while idgen is being preloaded: reserves the shared state and its lock.
void install_server_clock();

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

// Makes sure the mark covers an id whose time (Unix ms) is id_ms, made at generator clock ms
// clock_ms; raises it (the file, then WAL, durably) when needed, and a little before it is needed
// when nobody else is raising it. Call it after the step and before the id is returned, outside
// any spinlock: it may wait for the mark's lock and for the writes. Raises an ERROR when the id
// needs a mark that cannot be written. Does nothing during recovery, where no WAL can be written
// (Snowflake refuses to run there).
inline void cover_id_time(std::int64_t clock_ms, std::int64_t id_ms) {
  const auto mark = static_cast<std::int64_t>(pg_atomic_read_u64(&shared_server_clock->mark_ms));
  const bool covered = generator_mark::covers(mark, id_ms);
  if (covered && clock_ms <= static_cast<std::int64_t>(
                                 pg_atomic_read_u64(&shared_server_clock->raise_after_ms))) {
    return;
  }
  raise_mark_for(clock_ms, id_ms, covered);
}

// Adopts a mark found elsewhere (a database restored or upgraded from another server, the
// databases' marks read by a start that found no file): the clock moves past it and
// DistributedId's shared state after it, so the next ids sort after every id it covers. The
// durable mark rises with the next id, which the adopted mark does not cover.
void adopt_mark(std::int64_t mark_ms);

// Called by the WAL replay of a mark (crash recovery, a standby): raises the shared mark and the
// file to it. A file that cannot be written does not stop recovery: it says so once and keeps the
// mark in shared memory.
void apply_replayed_mark(std::int64_t mark_ms);

// Called when recovery ends (crash recovery, a standby's promotion): the generator clock moves
// past the replayed mark, so the ids of the new primary sort after the old primary's.
void start_clock_after_mark();

// Whether the start found no mark file (pg/generators/mark_scan.hpp reads the databases' marks
// then).
bool mark_file_missing_at_start();

struct ServerClockStatus {
  std::int64_t clock_us;  // the generator clock's reading
  std::int64_t wall_us;   // the wall clock's, taken with it
  std::int64_t mark_ms;   // the durable mark (0: none yet)
};
IDGEN_STACK_SAFE(ServerClockStatus);
// Only when preloaded.
ServerClockStatus server_clock_status();

}  // namespace idgen::pg
