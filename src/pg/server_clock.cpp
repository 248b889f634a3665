// See server_clock.hpp.
#include "pg/server_clock.hpp"

#include "core/clock.hpp"
#include "core/generator_mark.hpp"
#include "core/server_clock.hpp"
#include "core/stack_safe.hpp"
#include "pg/callback.hpp"
#include "pg/generator_mark.hpp"
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

struct SharedServerClock {
  pg_atomic_uint64 anchor_at_us;  // server_clock::Anchor, each an int64 stored as its bits
  pg_atomic_uint64 anchor_mono_us;
  pg_atomic_uint64 mark_ms;  // the durable mark, 0 before the first
};
IDGEN_STACK_SAFE(SharedServerClock);

SharedServerClock* shared = nullptr;
LWLock* mark_lock = nullptr;  // held while the mark is written: one writer at a time

shmem_startup_hook_type previous_startup_hook = nullptr;
shmem_request_hook_type previous_request_hook = nullptr;

std::int64_t load(pg_atomic_uint64* word) {
  return static_cast<std::int64_t>(pg_atomic_read_u64(word));
}

void store(pg_atomic_uint64* word, std::int64_t value) {
  pg_atomic_write_u64(word, static_cast<std::uint64_t>(value));
}

// Moves the anchor from `seen` (its reading as this process read it) to a new reading; the first
// process to do so wins, the others keep computing from the winner's anchor.
void move_anchor(std::int64_t seen, std::int64_t at_us, std::int64_t mono_us) {
  auto expected = static_cast<std::uint64_t>(seen);
  if (pg_atomic_compare_exchange_u64(&shared->anchor_at_us, &expected,
                                     static_cast<std::uint64_t>(at_us))) {
    store(&shared->anchor_mono_us, mono_us);
  }
}

// Raises the anchor's reading to at least floor_us, now.
void raise_floor(std::int64_t floor_us) {
  for (;;) {
    const std::int64_t at = load(&shared->anchor_at_us);
    if (at >= floor_us) return;
    auto expected = static_cast<std::uint64_t>(at);
    if (pg_atomic_compare_exchange_u64(&shared->anchor_at_us, &expected,
                                       static_cast<std::uint64_t>(floor_us))) {
      store(&shared->anchor_mono_us, clock::monotonic_us());
      return;
    }
  }
}

void request_shared_memory() noexcept {
  if (previous_request_hook != nullptr) previous_request_hook();
  RequestAddinShmemSpace(MAXALIGN(sizeof(SharedServerClock)));
  RequestNamedLWLockTranche(kLockTranche, 1);
}

// In the postmaster, at start and whenever it re-initialises shared memory after a backend
// crashed: the mark comes back from its file and the clock starts after it.
void attach_shared_memory() noexcept {
  if (previous_startup_hook != nullptr) previous_startup_hook();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  bool found = false;
  auto* mem = static_cast<SharedServerClock*>(
      ShmemInitStruct("idgen server clock", sizeof(SharedServerClock), &found));
  if (!found) {
    const std::int64_t mark = read_mark_file();
    const std::int64_t wall = clock::real_now_unix_us();
    const std::int64_t floor = mark > 0 ? generator_mark::clock_floor_us(mark) : wall;
    pg_atomic_init_u64(&mem->anchor_at_us, static_cast<std::uint64_t>(floor > wall ? floor : wall));
    pg_atomic_init_u64(&mem->anchor_mono_us, static_cast<std::uint64_t>(clock::monotonic_us()));
    pg_atomic_init_u64(&mem->mark_ms, static_cast<std::uint64_t>(mark));
  }
  shared = mem;
  mark_lock = &GetNamedLWLockTranche(kLockTranche)[0].lock;
  LWLockRelease(AddinShmemInitLock);
}

// Under mark_lock: logs and writes a higher mark, then publishes it.
void raise_mark_locked(std::int64_t clock_ms, std::int64_t id_ms) {
  const std::int64_t mark = load(&shared->mark_ms);
  if (!generator_mark::raise_due(mark, clock_ms) && generator_mark::covers(mark, id_ms)) return;
  const std::int64_t next = generator_mark::next_mark(clock_ms, id_ms);
  if (next <= mark) return;
  log_mark(next);
  write_mark_file(next);
  store(&shared->mark_ms, next);
}

}  // namespace

void install_server_clock() {
  if (!process_shared_preload_libraries_in_progress) return;
  previous_request_hook = shmem_request_hook;
  shmem_request_hook = noexcept_callback(request_shared_memory);
  previous_startup_hook = shmem_startup_hook;
  shmem_startup_hook = noexcept_callback(attach_shared_memory);
  register_mark_wal();
}

std::int64_t server_clock_now_us() {
  const std::int64_t wall = clock::real_now_unix_us();
  const std::int64_t at = load(&shared->anchor_at_us);
  if (server_clock::wall_suffices(wall, at)) {
    if (server_clock::refresh_due(wall - at)) move_anchor(at, wall, clock::monotonic_us());
    return wall;
  }
  const std::int64_t mono = clock::monotonic_us();
  const server_clock::Anchor anchor{at, load(&shared->anchor_mono_us)};
  const std::int64_t now = server_clock::reading_behind(wall, anchor, mono);
  if (server_clock::refresh_due(mono - anchor.mono_us)) move_anchor(at, now, mono);
  return now;
}

void cover_id_time(std::int64_t clock_ms, std::int64_t id_ms) {
  const std::int64_t mark = load(&shared->mark_ms);
  const bool covered = generator_mark::covers(mark, id_ms);
  if (covered && !generator_mark::raise_due(mark, clock_ms)) return;
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

void apply_replayed_mark(std::int64_t mark_ms) {
  LWLockAcquire(mark_lock, LW_EXCLUSIVE);
  if (mark_ms > load(&shared->mark_ms)) {
    write_mark_file(mark_ms);
    store(&shared->mark_ms, mark_ms);
  }
  LWLockRelease(mark_lock);
}

void start_clock_after_mark() {
  const std::int64_t mark = load(&shared->mark_ms);
  if (mark > 0) raise_floor(generator_mark::clock_floor_us(mark));
}

ServerClockStatus server_clock_status() {
  const std::int64_t now = server_clock_now_us();
  return {now, clock::real_now_unix_us(), load(&shared->mark_ms)};
}

}  // namespace idgen::pg
