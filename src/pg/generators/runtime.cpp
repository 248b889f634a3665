// See runtime.hpp.
#include "pg/generators/runtime.hpp"

#include <cstdint>

#include "core/generator_mark.hpp"
#include "pg/callback.hpp"
#include "pg/generators/generator_events.hpp"
#include "pg/generators/generator_mark.hpp"
#include "pg/generators/generator_state.hpp"
#include "pg/generators/mark_scan.hpp"
#include "pg/generators/server_clock.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog_internal.h"
#include "access/xlogreader.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

shmem_request_hook_type previous_request_hook = nullptr;
shmem_startup_hook_type previous_startup_hook = nullptr;

void request_shared_memory() noexcept {
  if (previous_request_hook != nullptr) previous_request_hook();
  RequestAddinShmemSpace(generator_state_shmem_size() + mark_shmem_size() +
                         server_clock_shmem_size() + mark_scan_shmem_size() +
                         generator_events_shmem_size());
  request_mark_lock();
}

// In the postmaster, at start and whenever it re-initialises shared memory after a backend
// crashed, in this order: the generators' states; the mark, from its file; the clock, started
// after the mark, and DistributedId's state placed after it; the reading of the databases' marks,
// pending when the mark had no file; the counters and what the log has said. Then the start's log
// line.
void attach_shared_memory() noexcept {
  if (previous_startup_hook != nullptr) previous_startup_hook();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  attach_generator_state();
  const std::int64_t mark = attach_mark();
  attach_server_clock(mark > 0 ? generator_mark::clock_floor_us(mark) : 0);
  if (mark > 0) place_distributed_id_after(mark);
  attach_mark_scan();
  attach_generator_events();
  LWLockRelease(AddinShmemInitLock);
  // Once per start and per re-initialisation, by the postmaster (a backend that attaches under
  // EXEC_BACKEND says nothing).
  if (!IsUnderPostmaster) log_generators_start(mark);
}

// A replayed mark is the newest copy: the start needs no database's.
void redo(XLogReaderState* record) noexcept {
  redo_mark(record);
  start_mark_replayed();
}

// End of recovery (after a crash, or a standby's promotion): the generators start after the
// replayed mark.
void after_recovery() noexcept {
  const std::int64_t mark = start_after_replayed_mark();
  report_start_mark_from_wal(mark);
  log_generators_after_recovery(mark);
}

RmgrData mark_rmgr = {};

}  // namespace

void install_generator_shared_memory() {
  previous_request_hook = shmem_request_hook;
  shmem_request_hook = noexcept_callback(request_shared_memory);
  previous_startup_hook = shmem_startup_hook;
  shmem_startup_hook = noexcept_callback(attach_shared_memory);
}

RmgrData* generator_mark_rmgr() {
  mark_rmgr.rm_name = "idgen";
  mark_rmgr.rm_redo = noexcept_callback(redo);
  mark_rmgr.rm_desc = noexcept_callback(describe_mark);
  mark_rmgr.rm_identify = noexcept_callback(identify_mark);
  mark_rmgr.rm_cleanup = noexcept_callback(after_recovery);
  return &mark_rmgr;
}

}  // namespace idgen::pg
