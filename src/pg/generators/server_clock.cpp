// See server_clock.hpp.
#include "pg/generators/server_clock.hpp"

#include <cstddef>

#include "core/clock.hpp"
#include "core/server_clock.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "port/atomics.h"
#include "storage/shmem.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

std::int64_t load(pg_atomic_uint64* word) {
  return static_cast<std::int64_t>(pg_atomic_read_u64(word));
}

void store(pg_atomic_uint64* word, std::int64_t value) {
  pg_atomic_write_u64(word, static_cast<std::uint64_t>(value));
}

// Moves the last reading on from `seen` (as this process read it) to `reading`: the first process
// to do so wins, the others compare against the winner's. With a new slew base when the wall
// clock serves; the base is written after the reading, so a reader that sees the new reading
// with the old base computes from the older anchor, which is behind the wall clock.
bool move_last_reading(std::int64_t seen, std::int64_t reading) {
  auto expected = static_cast<std::uint64_t>(seen);
  return pg_atomic_compare_exchange_u64(&shared_server_clock->last_us, &expected,
                                        static_cast<std::uint64_t>(reading));
}

// A step back smaller than this is not counted: NTP keeps a good clock within it, and such a step
// moves ids by less than the mark's margin.
constexpr std::int64_t kStepBackMinUs = 1000;

// Tells a step back of the wall clock from the clock's own lead, by the offset between the wall
// clock and CLOCK_MONOTONIC, and counts it once, whichever process sees it first. `wall` was read
// before the monotonic clock here, so a process preempted in between sees the offset smaller than
// it is: a step is confirmed by readings in the other order (the monotonic clock first), which
// can only make it look larger. Only atomic reads and writes: it runs inside a generator's step.
void note_wall_clock(std::int64_t wall) {
  const std::int64_t seen = load(&shared_server_clock->wall_offset_us);
  auto expected = static_cast<std::uint64_t>(seen);
  const std::int64_t offset = wall - clock::monotonic_us();
  if (offset > seen - kStepBackMinUs) {
    // A step forward: followed, so that a later step back is measured from it.
    if (offset > seen) {
      (void)pg_atomic_compare_exchange_u64(&shared_server_clock->wall_offset_us, &expected,
                                           static_cast<std::uint64_t>(offset));
    }
    return;
  }
  const std::int64_t mono = clock::monotonic_us();
  const std::int64_t confirmed = clock::real_now_unix_us() - mono;
  if (confirmed > seen - kStepBackMinUs) return;
  if (pg_atomic_compare_exchange_u64(&shared_server_clock->wall_offset_us, &expected,
                                     static_cast<std::uint64_t>(confirmed))) {
    store(&shared_server_clock->last_step_back_us, seen - confirmed);
    (void)pg_atomic_fetch_add_u64(&shared_server_clock->steps_back, 1);
  }
}

}  // namespace

SharedServerClock* shared_server_clock = nullptr;

std::size_t server_clock_shmem_size() { return MAXALIGN(sizeof(SharedServerClock)); }

void attach_server_clock(std::int64_t floor_us) {
  bool found = false;
  auto* mem = static_cast<SharedServerClock*>(
      ShmemInitStruct("idgen server clock", sizeof(SharedServerClock), &found));
  if (!found) {
    const std::int64_t wall = clock::real_now_unix_us();
    const std::int64_t start = floor_us > wall ? floor_us : wall;
    const std::int64_t mono = clock::monotonic_us();
    pg_atomic_init_u64(&mem->last_us, static_cast<std::uint64_t>(start));
    pg_atomic_init_u64(&mem->slew_base_us,
                       static_cast<std::uint64_t>(server_clock::slew_base(start, mono)));
    pg_atomic_init_u64(&mem->started_mono_us, static_cast<std::uint64_t>(mono));
    pg_atomic_init_u64(&mem->wall_offset_us, static_cast<std::uint64_t>(wall - mono));
    pg_atomic_init_u64(&mem->steps_back, 0);
    pg_atomic_init_u64(&mem->last_step_back_us, 0);
  }
  shared_server_clock = mem;
}

// Raises the clock to at least floor_us, now: the base first, so a reader that sees the new last
// reading computes from the new base.
void raise_server_clock(std::int64_t floor_us) {
  const std::int64_t base = server_clock::slew_base(floor_us, clock::monotonic_us());
  for (;;) {
    const std::int64_t seen = load(&shared_server_clock->slew_base_us);
    if (seen >= base) break;
    auto expected = static_cast<std::uint64_t>(seen);
    if (pg_atomic_compare_exchange_u64(&shared_server_clock->slew_base_us, &expected,
                                       static_cast<std::uint64_t>(base))) {
      break;
    }
  }
  for (;;) {
    const std::int64_t seen = load(&shared_server_clock->last_us);
    if (seen >= floor_us || move_last_reading(seen, floor_us)) return;
  }
}

void note_server_clock_started() {
  store(&shared_server_clock->started_mono_us, clock::monotonic_us());
}

std::int64_t ms_since_server_clock_started() {
  return (clock::monotonic_us() - load(&shared_server_clock->started_mono_us)) / 1000;
}

// The reading when the wall clock is behind the last reading, or when the last reading is due to
// move on (server_clock_now_us() handles the rest inline).
std::int64_t server_clock_reading_at(std::int64_t wall, std::int64_t last) {
  note_wall_clock(wall);
  if (server_clock::wall_suffices(wall, last)) {
    if (server_clock::refresh_due(wall - last) && move_last_reading(last, wall)) {
      store(&shared_server_clock->slew_base_us,
            server_clock::slew_base(wall, clock::monotonic_us()));
    }
    return wall;
  }
  const std::int64_t now = server_clock::reading_behind(
      wall, load(&shared_server_clock->slew_base_us), clock::monotonic_us());
  if (server_clock::refresh_due(now - last)) (void)move_last_reading(last, now);
  return now;
}

ServerClockSteps server_clock_steps() {
  return {load(&shared_server_clock->steps_back), load(&shared_server_clock->last_step_back_us)};
}

ServerClockStatus server_clock_status() {
  const std::int64_t wall = clock::real_now_unix_us();
  const std::int64_t last = load(&shared_server_clock->last_us);
  return {server_clock_reading_at(wall, last), wall};
}

}  // namespace idgen::pg
