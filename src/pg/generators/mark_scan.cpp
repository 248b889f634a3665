// See mark_scan.hpp.
#include "pg/generators/mark_scan.hpp"

#include <cstdint>
#include <cstring>

#include "core/stack_safe.hpp"
#include "pg/callback.hpp"
#include "pg/generators/database_mark.hpp"
#include "pg/generators/generator_mark.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_database.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "storage/condition_variable.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

// How long an id waits for the databases' marks at most (reading one takes a worker's start and a
// catalog lookup: milliseconds, unless a session holds a database's mark locked).
constexpr long kAwaitMs = 60000;
// How long a requested reading may take to start before another backend requests it again (the
// postmaster could not start the worker, and the backend that asked was cancelled meanwhile).
constexpr long kLauncherStartMs = 10000;
// How many databases are read at the same time, each by a worker of its own.
constexpr int kReaders = 4;
// pg_database.datconnlimit of a database that an interrupted DROP DATABASE left behind
// (DATCONNLIMIT_INVALID_DB, 15.4 and later): it cannot be connected to, nor hold ids any more.
constexpr int kInvalidDatabaseConnLimit = -2;

enum class ScanState : std::uint32_t {
  known,    // the start's mark is known: the file, a replayed mark, or the databases' marks
  pending,  // the start found no file; nobody is reading the databases yet
  running,  // the workers are reading them (attempt)
  failed,   // the reading of attempt failed (failure); the next id tries again
};

enum class ScanFailure : std::uint32_t {
  none,
  no_worker_slot,        // no background worker could be registered
  launcher_not_started,  // the postmaster did not start the worker that lists the databases
  launcher_ended,        // that worker ended without a result (see the server log)
  database_unreadable,   // a database's reader ended without its mark (failed_database)
};

// One database being read, by the reader started for it.
struct ReaderSlot {
  std::uint32_t attempt;
  Oid database;
  bool done;
  std::int64_t mark;
};
IDGEN_STACK_SAFE(ReaderSlot);

struct MarkScan {
  pg_atomic_uint32 known;  // 1 once state is known: what every backend checks first
  slock_t lock;            // guards the rest
  ScanState state;
  ScanFailure failure;
  std::uint32_t attempt;  // of the latest reading requested
  int launcher_pid;       // 0 until that reading's worker has started
  TimestampTz requested_at;
  NameData failed_database;
  bool replayed;              // WAL replay supplied the mark
  bool replay_reported;       // and the end of recovery said so
  ConditionVariable changed;  // broadcast when state changes
  ReaderSlot slots[kReaders];
};
IDGEN_STACK_SAFE(MarkScan);

MarkScan* scan = nullptr;

// Under scan->lock: the mark is known from now on.
void become_known_locked() {
  scan->state = ScanState::known;
  scan->failure = ScanFailure::none;
  pg_atomic_write_u32(&scan->known, 1);
}

// Ends `attempt` with a failure, when it is still the running one, and wakes the waiters.
void fail_attempt(std::uint32_t attempt, ScanFailure failure, const char* database) {
  bool changed = false;
  SpinLockAcquire(&scan->lock);
  if (scan->state == ScanState::running && scan->attempt == attempt) {
    scan->state = ScanState::failed;
    scan->failure = failure;
    std::memset(&scan->failed_database, 0, sizeof scan->failed_database);
    if (database != nullptr) strlcpy(NameStr(scan->failed_database), database, NAMEDATALEN);
    changed = true;
  }
  SpinLockRelease(&scan->lock);
  if (changed) ConditionVariableBroadcast(&scan->changed);
}

// The detail of every error of the reading: why idgen reads the databases at all.
int detail_file_missing() {
  return errdetail(
      "The file \"%s\" was missing when the server started, and the WAL it "
      "replayed held no mark, so idgen reads every database's generator mark before "
      "its first server-wide id.",
      kMarkFileName);
}

[[noreturn]] void report_scan_failure(ScanFailure failure, const char* database) {
  switch (failure) {
    case ScanFailure::no_worker_slot:
      ereport(ERROR,
              (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
               errmsg("idgen could not start a background worker to read the databases' "
                      "generator marks"),
               detail_file_missing(),
               errhint("Raise max_worker_processes (now %d), which counts every background and "
                       "parallel worker, or restore the file from a backup of this data "
                       "directory.",
                       max_worker_processes)));
      break;
    case ScanFailure::launcher_not_started:
    case ScanFailure::launcher_ended:
      ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                      errmsg("idgen's background worker ended before it read the databases' "
                             "generator marks"),
                      detail_file_missing(),
                      errhint("The server log says why. The next server-wide id tries again.")));
      break;
    case ScanFailure::database_unreadable:
      ereport(ERROR,
              (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
               errmsg("idgen could not read the generator mark of database \"%s\"", database),
               detail_file_missing(),
               errhint("The server log says why. The next server-wide id tries again.")));
      break;
    case ScanFailure::none:
      break;
  }
  elog(ERROR, "idgen: the reading of the databases' generator marks failed without a cause");
  pg_unreachable();
}

// Registers the worker that lists the databases and reads them, for `attempt`, notifying this
// backend; waits until the postmaster has started it (or could not).
void start_launcher(std::uint32_t attempt) {
  BackgroundWorker worker;
  std::memset(&worker, 0, sizeof worker);
  worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
  worker.bgw_start_time = BgWorkerStart_ConsistentState;
  worker.bgw_restart_time = BGW_NEVER_RESTART;
  strlcpy(worker.bgw_library_name, "idgen", BGW_MAXLEN);
  strlcpy(worker.bgw_function_name, "idgen_read_generator_marks", BGW_MAXLEN);
  strlcpy(worker.bgw_name, "idgen generator mark reader", BGW_MAXLEN);
  strlcpy(worker.bgw_type, "idgen generator mark reader", BGW_MAXLEN);
  worker.bgw_main_arg = UInt32GetDatum(attempt);
  worker.bgw_notify_pid = MyProcPid;
  BackgroundWorkerHandle* handle = nullptr;
  if (!RegisterDynamicBackgroundWorker(&worker, &handle)) {
    fail_attempt(attempt, ScanFailure::no_worker_slot, nullptr);
    report_scan_failure(ScanFailure::no_worker_slot, nullptr);
  }
  pid_t pid = 0;
  const BgwHandleStatus status = WaitForBackgroundWorkerStartup(handle, &pid);
  if (status == BGWH_POSTMASTER_DIED) {
    ereport(FATAL, (errcode(ERRCODE_ADMIN_SHUTDOWN),
                    errmsg("postmaster exited while idgen read the databases' generator marks")));
  }
  if (status == BGWH_STOPPED) {
    // Ended already: with a result, or failed (it says so itself), or never started.
    bool never_started = false;
    SpinLockAcquire(&scan->lock);
    never_started =
        scan->state == ScanState::running && scan->attempt == attempt && scan->launcher_pid == 0;
    SpinLockRelease(&scan->lock);
    if (never_started) fail_attempt(attempt, ScanFailure::launcher_not_started, nullptr);
  }
}

// Single-user mode has no background workers: only this database's mark can be read.
void read_this_database_only() {
  const std::int64_t mark = own_database_mark();
  if (mark > 0) {
    adopt_databases_mark(mark);
  }
  ereport(WARNING,
          (errmsg("idgen's generator mark file \"%s\" was missing at start", kMarkFileName),
           errdetail("In single-user mode idgen can read only this database's generator mark "
                     "(%lld); the other databases' were not read.",
                     static_cast<long long>(mark)),
           errhint("Make the first server-wide id after losing the file on a server started "
                   "normally: it reads every database's mark.")));
  SpinLockAcquire(&scan->lock);
  become_known_locked();
  SpinLockRelease(&scan->lock);
}

// ---- the workers ----

// The attempt the worker that lists the databases works for (0 in every other process).
std::uint32_t launcher_attempt = 0;

// On the listing worker's exit, however it ends: an attempt it did not finish fails.
void launcher_exits(int /*code*/, Datum /*arg*/) noexcept {
  if (launcher_attempt != 0) fail_attempt(launcher_attempt, ScanFailure::launcher_ended, nullptr);
}

// Says that the listing worker for `attempt` runs; false when that attempt is over (superseded).
bool announce_launcher(std::uint32_t attempt) {
  bool current = false;
  SpinLockAcquire(&scan->lock);
  if (scan->state == ScanState::running && scan->attempt == attempt) {
    scan->launcher_pid = MyProcPid;
    current = true;
  }
  SpinLockRelease(&scan->lock);
  return current;
}

struct DatabaseEntry {
  Oid oid;
  NameData name;
};
IDGEN_STACK_SAFE(DatabaseEntry);

bool connectable(Form_pg_database database) {
  return database->datallowconn && database->datconnlimit != kInvalidDatabaseConnLimit;
}

// The databases that can be connected to, in TopMemoryContext.
DatabaseEntry* list_databases(int* count) {
  int capacity = 16;
  auto* entries = static_cast<DatabaseEntry*>(
      MemoryContextAlloc(TopMemoryContext, sizeof(DatabaseEntry) * capacity));
  *count = 0;
  StartTransactionCommand();
  (void)GetTransactionSnapshot();
  Relation rel = table_open(DatabaseRelationId, AccessShareLock);
  TableScanDesc catalog_scan = table_beginscan_catalog(rel, 0, nullptr);
  HeapTuple tuple = nullptr;
  while (HeapTupleIsValid(tuple = heap_getnext(catalog_scan, ForwardScanDirection))) {
    auto* database = reinterpret_cast<Form_pg_database>(GETSTRUCT(tuple));
    if (!connectable(database)) continue;
    if (*count == capacity) {
      capacity *= 2;
      entries = static_cast<DatabaseEntry*>(repalloc(entries, sizeof(DatabaseEntry) * capacity));
    }
    entries[*count].oid = database->oid;
    entries[*count].name = database->datname;
    ++*count;
  }
  table_endscan(catalog_scan);
  table_close(rel, AccessShareLock);
  CommitTransactionCommand();
  return entries;
}

// Whether a database whose reader failed still exists and can be connected to (else it was
// dropped meanwhile, or its connections were closed: it holds no ids to cover from then on).
bool still_connectable(Oid oid) {
  StartTransactionCommand();
  bool result = false;
  HeapTuple tuple = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(oid));
  if (HeapTupleIsValid(tuple)) {
    result = connectable(reinterpret_cast<Form_pg_database>(GETSTRUCT(tuple)));
    ReleaseSysCache(tuple);
  }
  CommitTransactionCommand();
  return result;
}

// What a reader gets: its slot (main argument), and the attempt and database (extra bytes).
struct ReaderOrder {
  std::uint32_t attempt;
  Oid database;
};
IDGEN_STACK_SAFE(ReaderOrder);

bool start_reader(int slot, std::uint32_t attempt, Oid database, BackgroundWorkerHandle** handle) {
  SpinLockAcquire(&scan->lock);
  scan->slots[slot] = ReaderSlot{attempt, database, false, 0};
  SpinLockRelease(&scan->lock);
  BackgroundWorker worker;
  std::memset(&worker, 0, sizeof worker);
  worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
  worker.bgw_start_time = BgWorkerStart_ConsistentState;
  worker.bgw_restart_time = BGW_NEVER_RESTART;
  strlcpy(worker.bgw_library_name, "idgen", BGW_MAXLEN);
  strlcpy(worker.bgw_function_name, "idgen_read_database_mark", BGW_MAXLEN);
  strlcpy(worker.bgw_name, "idgen generator mark reader for a database", BGW_MAXLEN);
  strlcpy(worker.bgw_type, "idgen generator mark reader", BGW_MAXLEN);
  worker.bgw_main_arg = Int32GetDatum(slot);
  const ReaderOrder order{attempt, database};
  static_assert(sizeof order <= BGW_EXTRALEN, "a reader's order fits in bgw_extra");
  std::memcpy(worker.bgw_extra, &order, sizeof order);
  worker.bgw_notify_pid = MyProcPid;
  return RegisterDynamicBackgroundWorker(&worker, handle);
}

// The result of reading every database.
struct ScanResult {
  std::int64_t mark;  // the newest, 0 when none holds one
  NameData held_by;   // the database that holds it
  int databases;      // how many were read
};
IDGEN_STACK_SAFE(ScanResult);

// Reads every database's mark, kReaders at a time; false (the attempt failed) when a database
// that still exists could not be read or no reader could be started.
bool read_databases(std::uint32_t attempt, ScanResult* result) {
  int count = 0;
  const DatabaseEntry* databases = list_databases(&count);
  BackgroundWorkerHandle* handles[kReaders] = {};
  int reading[kReaders] = {};  // the database each slot reads
  int next = 0;
  int active = 0;
  *result = ScanResult{};
  while (next < count || active > 0) {
    for (int slot = 0; slot < kReaders && next < count; ++slot) {
      if (handles[slot] != nullptr) continue;
      if (!start_reader(slot, attempt, databases[next].oid, &handles[slot])) {
        handles[slot] = nullptr;
        if (active == 0) {
          fail_attempt(attempt, ScanFailure::no_worker_slot, nullptr);
          return false;
        }
        break;  // wait for a reader to end, then try again
      }
      reading[slot] = next++;
      ++active;
    }
    bool collected = false;
    for (int slot = 0; slot < kReaders; ++slot) {
      if (handles[slot] == nullptr) continue;
      pid_t pid = 0;
      if (GetBackgroundWorkerPid(handles[slot], &pid) != BGWH_STOPPED) continue;
      pfree(handles[slot]);
      handles[slot] = nullptr;
      --active;
      collected = true;
      SpinLockAcquire(&scan->lock);
      const ReaderSlot read = scan->slots[slot];
      SpinLockRelease(&scan->lock);
      const DatabaseEntry& database = databases[reading[slot]];
      if (!read.done) {
        if (!still_connectable(database.oid)) continue;
        fail_attempt(attempt, ScanFailure::database_unreadable, NameStr(database.name));
        return false;
      }
      ++result->databases;
      if (read.mark > result->mark) {
        result->mark = read.mark;
        result->held_by = database.name;
      }
    }
    if (!collected && active > 0) {
      (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 100,
                      PG_WAIT_EXTENSION);
      ResetLatch(MyLatch);
      CHECK_FOR_INTERRUPTS();
    }
  }
  return true;
}

// The result in effect: the clock and DistributedId after the newest mark, the log told which
// copy was taken, the waiters woken.
void publish(std::uint32_t attempt, const ScanResult& result) {
  if (result.mark > 0) {
    adopt_databases_mark(result.mark);
    ereport(WARNING,
            (errmsg("idgen's generator mark file \"%s\" was missing at start", kMarkFileName),
             errdetail("idgen took the newest generator mark of the %d databases it read, %lld "
                       "from database \"%s\", and starts its server-wide generators after it.",
                       result.databases, static_cast<long long>(result.mark),
                       NameStr(result.held_by))));
  } else {
    ereport(LOG, (errmsg("idgen's generator mark file \"%s\" was missing at start", kMarkFileName),
                  errdetail("None of the %d databases idgen read holds a generator mark: its "
                            "server-wide generators start from the clock.",
                            result.databases)));
  }
  bool changed = false;
  SpinLockAcquire(&scan->lock);
  if (scan->state == ScanState::running && scan->attempt == attempt) {
    become_known_locked();
    changed = true;
  }
  SpinLockRelease(&scan->lock);
  if (changed) ConditionVariableBroadcast(&scan->changed);
}

}  // namespace

bool start_mark_known = false;

std::size_t mark_scan_shmem_size() { return MAXALIGN(sizeof(MarkScan)); }

void attach_mark_scan() {
  bool found = false;
  auto* mem = static_cast<MarkScan*>(ShmemInitStruct("idgen mark scan", sizeof(MarkScan), &found));
  if (!found) {
    const bool missing = mark_file_missing_at_start();
    pg_atomic_init_u32(&mem->known, missing ? 0 : 1);
    SpinLockInit(&mem->lock);
    mem->state = missing ? ScanState::pending : ScanState::known;
    mem->failure = ScanFailure::none;
    mem->attempt = 0;
    mem->launcher_pid = 0;
    mem->requested_at = 0;
    std::memset(&mem->failed_database, 0, sizeof mem->failed_database);
    mem->replayed = false;
    mem->replay_reported = false;
    ConditionVariableInit(&mem->changed);
    std::memset(mem->slots, 0, sizeof mem->slots);
  }
  scan = mem;
}

void await_start_mark_now() {
  if (pg_atomic_read_u32(&scan->known) != 0) {
    start_mark_known = true;
    return;
  }
  if (!IsUnderPostmaster) {
    read_this_database_only();
    start_mark_known = true;
    return;
  }
  const TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), kAwaitMs);
  std::uint32_t waiting_for = 0;  // the attempt this backend waits for
  for (;;) {
    const TimestampTz now = GetCurrentTimestamp();
    bool launch = false;
    bool known = false;
    ScanFailure failure = ScanFailure::none;
    NameData failed_database;
    std::memset(&failed_database, 0, sizeof failed_database);
    SpinLockAcquire(&scan->lock);
    switch (scan->state) {
      case ScanState::known:
        known = true;
        break;
      case ScanState::failed:
        if (scan->attempt == waiting_for) {
          failure = scan->failure;
          failed_database = scan->failed_database;
          break;
        }
        launch = true;
        break;
      case ScanState::pending:
        launch = true;
        break;
      case ScanState::running:
        waiting_for = scan->attempt;
        if (scan->launcher_pid == 0 &&
            TimestampDifferenceExceeds(scan->requested_at, now, kLauncherStartMs)) {
          scan->state = ScanState::failed;
          scan->failure = ScanFailure::launcher_not_started;
          failure = scan->failure;
        }
        break;
    }
    if (launch) {
      scan->state = ScanState::running;
      scan->failure = ScanFailure::none;
      waiting_for = ++scan->attempt;
      scan->launcher_pid = 0;
      scan->requested_at = now;
    }
    SpinLockRelease(&scan->lock);
    if (known) break;
    if (failure != ScanFailure::none) {
      ConditionVariableCancelSleep();
      report_scan_failure(failure, NameStr(failed_database));
    }
    if (launch) start_launcher(waiting_for);
    if (now >= deadline) {
      ConditionVariableCancelSleep();
      ereport(ERROR,
              (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
               errmsg("idgen did not finish reading the databases' generator marks within %ld s",
                      kAwaitMs / 1000),
               detail_file_missing(),
               errhint("A session that holds a database's generator mark locked holds the reading "
                       "up. The next server-wide id waits again.")));
    }
    (void)ConditionVariableTimedSleep(&scan->changed, 100, PG_WAIT_EXTENSION);
  }
  ConditionVariableCancelSleep();
  start_mark_known = true;
}

void start_mark_replayed() {
  bool changed = false;
  SpinLockAcquire(&scan->lock);
  if (scan->state != ScanState::known) {
    become_known_locked();
    scan->replayed = true;
    changed = true;
  }
  SpinLockRelease(&scan->lock);
  if (changed) ConditionVariableBroadcast(&scan->changed);
}

void report_start_mark_from_wal(std::int64_t mark_ms) {
  bool report = false;
  SpinLockAcquire(&scan->lock);
  if (scan->replayed && !scan->replay_reported) {
    scan->replay_reported = true;
    report = true;
  }
  SpinLockRelease(&scan->lock);
  if (report) {
    ereport(WARNING,
            (errmsg("idgen's generator mark file \"%s\" was missing at start", kMarkFileName),
             errdetail("idgen took the mark replayed from WAL, %lld, which is newer than every "
                       "other copy, and starts its server-wide generators after it.",
                       static_cast<long long>(mark_ms))));
  }
}

// The worker that lists the databases and reads their marks (one per attempt).
extern "C" PGDLLEXPORT void idgen_read_generator_marks(Datum arg) noexcept;
void idgen_read_generator_marks(Datum arg) noexcept {
  const std::uint32_t attempt = DatumGetUInt32(arg);
  BackgroundWorkerUnblockSignals();
  if (!announce_launcher(attempt)) return;
  launcher_attempt = attempt;
  before_shmem_exit(noexcept_callback(launcher_exits), 0);
  BackgroundWorkerInitializeConnection(nullptr, nullptr, 0);
  ScanResult result;
  if (!read_databases(attempt, &result)) return;
  publish(attempt, result);
}

// A worker that reads one database's mark into its slot.
extern "C" PGDLLEXPORT void idgen_read_database_mark(Datum arg) noexcept;
void idgen_read_database_mark(Datum arg) noexcept {
  const int slot = DatumGetInt32(arg);
  ReaderOrder order;
  std::memcpy(&order, MyBgworkerEntry->bgw_extra, sizeof order);
  BackgroundWorkerUnblockSignals();
  BackgroundWorkerInitializeConnectionByOid(order.database, InvalidOid, 0);
  StartTransactionCommand();
  PushActiveSnapshot(GetTransactionSnapshot());
  const std::int64_t mark = own_database_mark();
  PopActiveSnapshot();
  CommitTransactionCommand();
  SpinLockAcquire(&scan->lock);
  ReaderSlot& mine = scan->slots[slot];
  if (mine.attempt == order.attempt && mine.database == order.database) {
    mine.done = true;
    mine.mark = mark;
  }
  SpinLockRelease(&scan->lock);
}

}  // namespace idgen::pg
