// See server_clock.hpp.
#include "pg/generators/server_clock.hpp"

#include <optional>

#include "core/arith.hpp"
#include "core/clock.hpp"
#include "core/generator_mark.hpp"
#include "core/server_clock.hpp"
#include "core/stack_safe.hpp"
#include "pg/callback.hpp"
#include "pg/generators/generator_mark.hpp"
#include "pg/generators/generator_state.hpp"
#include "pg/generators/mark_scan.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

constexpr const char* kLockTranche = "idgen generator mark";

LWLock* mark_lock = nullptr;  // held while the mark is written: one writer at a time

shmem_startup_hook_type previous_startup_hook = nullptr;
shmem_request_hook_type previous_request_hook = nullptr;

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

// Raises the clock to at least floor_us, now: the base first, so a reader that sees the new last
// reading computes from the new base.
void raise_floor(std::int64_t floor_us) {
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

void request_shared_memory() noexcept {
  if (previous_request_hook != nullptr) previous_request_hook();
  RequestAddinShmemSpace(MAXALIGN(sizeof(SharedServerClock)));
  RequestNamedLWLockTranche(kLockTranche, 1);
}

// In the postmaster, at start and whenever it re-initialises shared memory after a backend
// crashed: the mark comes back from its file, the clock starts after it and DistributedId's
// state is placed after it. (The generators' shared state is initialised before this hook runs:
// module.cpp installs it first.)
void attach_shared_memory() noexcept {
  if (previous_startup_hook != nullptr) previous_startup_hook();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  bool found = false;
  auto* mem = static_cast<SharedServerClock*>(
      ShmemInitStruct("idgen server clock", sizeof(SharedServerClock), &found));
  if (!found) {
    const std::optional<std::int64_t> in_file = read_mark_file();
    const std::int64_t mark = in_file.value_or(0);
    const std::int64_t wall = clock::real_now_unix_us();
    const std::int64_t floor = mark > 0 ? generator_mark::clock_floor_us(mark) : wall;
    const std::int64_t start = floor > wall ? floor : wall;
    const std::int64_t mono = clock::monotonic_us();
    pg_atomic_init_u64(&mem->last_us, static_cast<std::uint64_t>(start));
    pg_atomic_init_u64(&mem->slew_base_us,
                       static_cast<std::uint64_t>(server_clock::slew_base(start, mono)));
    pg_atomic_init_u64(&mem->mark_ms, static_cast<std::uint64_t>(mark));
    pg_atomic_init_u64(&mem->raise_after_ms, static_cast<std::uint64_t>(mark));
    pg_atomic_init_u64(&mem->started_mono_us, static_cast<std::uint64_t>(mono));
    pg_atomic_init_u32(&mem->file_missing, in_file ? 0 : 1);
    if (mark > 0) place_distributed_id_after(mark);
  }
  shared_server_clock = mem;
  mark_lock = &GetNamedLWLockTranche(kLockTranche)[0].lock;
  LWLockRelease(AddinShmemInitLock);
}

// The clock reading from which to look at the mark again when raising it now brought nothing (no
// higher mark was due, or the file could not be written): halfway to the mark, so that attempts
// thin out instead of coming with every id.
std::int64_t retry_point(std::int64_t mark_ms, std::int64_t clock_ms) {
  const std::int64_t half = (mark_ms - clock_ms) / 2;
  return clock_ms + (half > 1 ? half : 1);
}

// Under mark_lock: writes a higher mark to the file, then logs it, then publishes it. The mark
// goes at most the margin past the clock (core/generator_mark.hpp): less while the clock leads
// the wall clock after a start, so that crashes in a row do not push the clock further ahead.
// A write that fails raises an ERROR when the id needs the mark, and is tried again later when it
// was only raised ahead of need; either way it adds nothing to WAL.
void raise_mark_locked(std::int64_t clock_ms, std::int64_t id_ms) {
  const std::int64_t mark = load(&shared_server_clock->mark_ms);
  const bool covered = generator_mark::covers(mark, id_ms);
  if (covered && clock_ms <= load(&shared_server_clock->raise_after_ms)) return;
  const std::int64_t wall_ms = floor_div(clock::real_now_unix_us(), 1000);
  const std::int64_t since_start_ms =
      (clock::monotonic_us() - load(&shared_server_clock->started_mono_us)) / 1000;
  const std::int64_t margin = generator_mark::margin(clock_ms, wall_ms, since_start_ms);
  const std::int64_t next = generator_mark::next_mark(clock_ms, id_ms, margin);
  if (next <= mark) {  // only ahead of need: nothing to gain yet
    store(&shared_server_clock->raise_after_ms, retry_point(mark, clock_ms));
    return;
  }
  const MarkFileWrite written = write_mark_file(next);
  if (!written.ok) {
    if (covered) {
      store(&shared_server_clock->raise_after_ms, retry_point(mark, clock_ms));
      return;
    }
    report_mark_file_failure(written, ERROR);
  }
  log_mark(next);
  store(&shared_server_clock->raise_after_ms, generator_mark::raise_point(next, margin));
  store(&shared_server_clock->mark_ms, next);
}

// Whether this process (the startup process) has said that it could not write the file.
bool replay_write_failure_reported = false;

}  // namespace

SharedServerClock* shared_server_clock = nullptr;

void install_server_clock() {
  if (!process_shared_preload_libraries_in_progress) return;
  previous_request_hook = shmem_request_hook;
  shmem_request_hook = noexcept_callback(request_shared_memory);
  previous_startup_hook = shmem_startup_hook;
  shmem_startup_hook = noexcept_callback(attach_shared_memory);
  register_mark_wal();
}

// The reading when the wall clock is behind the last reading, or when the last reading is due to
// move on (server_clock_now_us() handles the rest inline).
std::int64_t server_clock_reading_at(std::int64_t wall, std::int64_t last) {
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

// The mark must rise (an id passes it), or may (it is close): cover_id_time() decided inline.
void raise_mark_for(std::int64_t clock_ms, std::int64_t id_ms, bool covered) {
  if (RecoveryInProgress()) return;
  if (covered) {
    // Ahead of need: only if no other session is writing the mark right now.
    if (!LWLockConditionalAcquire(mark_lock, LW_EXCLUSIVE)) return;
  } else {
    LWLockAcquire(mark_lock, LW_EXCLUSIVE);
  }
  raise_mark_locked(clock_ms, id_ms);
  LWLockRelease(mark_lock);
}

void adopt_mark(std::int64_t mark_ms) {
  raise_floor(generator_mark::clock_floor_us(mark_ms));
  place_distributed_id_after(mark_ms);
}

void apply_replayed_mark(std::int64_t mark_ms) {
  LWLockAcquire(mark_lock, LW_EXCLUSIVE);
  if (mark_ms > load(&shared_server_clock->mark_ms)) {
    const MarkFileWrite written = write_mark_file(mark_ms);
    if (!written.ok && !replay_write_failure_reported) {
      report_mark_file_failure(written, WARNING);
      replay_write_failure_reported = true;
    }
    store(&shared_server_clock->mark_ms, mark_ms);
  }
  LWLockRelease(mark_lock);
  start_mark_replayed();
}

void start_clock_after_mark() {
  const std::int64_t mark = load(&shared_server_clock->mark_ms);
  if (mark > 0) {
    raise_floor(generator_mark::clock_floor_us(mark));
    place_distributed_id_after(mark);
  }
  store(&shared_server_clock->started_mono_us, clock::monotonic_us());
  report_start_mark_from_wal(mark);
}

bool mark_file_missing_at_start() {
  return pg_atomic_read_u32(&shared_server_clock->file_missing) != 0;
}

ServerClockStatus server_clock_status() {
  const std::int64_t wall = clock::real_now_unix_us();
  const std::int64_t last = load(&shared_server_clock->last_us);
  return {server_clock_reading_at(wall, last), wall, load(&shared_server_clock->mark_ms)};
}

}  // namespace idgen::pg
