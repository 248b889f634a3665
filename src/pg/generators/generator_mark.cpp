// See generator_mark.hpp.
#include "pg/generators/generator_mark.hpp"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <optional>

#include <fcntl.h>
#include <unistd.h>

#include "core/arith.hpp"
#include "core/clock.hpp"
#include "core/generator_mark.hpp"
#include "pg/generators/generator_state.hpp"
#include "pg/generators/server_clock.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "lib/stringinfo.h"
#include "port/atomics.h"
#include "storage/fd.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

const char* const kMarkFileName = "idgen_generator_mark";

namespace {

constexpr const char* kLockTranche = "idgen generator mark";
constexpr const char* kTempFileName = "idgen_generator_mark.tmp";
constexpr std::uint8_t kMarkInfo = 0x00;  // the one record type: "the mark is now ..."

LWLock* mark_lock = nullptr;  // held while the mark is written: one writer at a time

// Whether this process (the startup process) has said that it could not write the file.
bool replay_write_failure_reported = false;

std::int64_t load(pg_atomic_uint64* word) {
  return static_cast<std::int64_t>(pg_atomic_read_u64(word));
}

void store(pg_atomic_uint64* word, std::int64_t value) {
  pg_atomic_write_u64(word, static_cast<std::uint64_t>(value));
}

// ---- the file ----

// What writing the file came to: ok, or the errno of the step that failed.
struct MarkFileWrite {
  bool ok;
  int error;
};
IDGEN_STACK_SAFE(MarkFileWrite);

constexpr MarkFileWrite kWritten = {true, 0};

MarkFileWrite failed_with(int error) { return {false, error != 0 ? error : EIO}; }

// Stops the start: the file is there but cannot be read (errno is the cause).
[[noreturn]] void report_unreadable_file(const char* what) {
  ereport(FATAL,
          (errcode_for_file_access(),
           errmsg("could not %s idgen's generator mark file \"%s\": %m", what, kMarkFileName),
           errhint("Make it readable by the server's user.")));
  pg_unreachable();
}

// The mark in the data directory's file; nullopt when there is no file (a new server, or one whose
// file was lost: pg/generators/mark_scan.hpp then finds the mark elsewhere).
std::optional<std::int64_t> read_mark_file() {
  const int fd = OpenTransientFile(kMarkFileName, O_RDONLY | PG_BINARY);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    report_unreadable_file("open");
  }
  std::uint8_t bytes[generator_mark::kEncodedBytes + 1];
  const ssize_t n = read(fd, bytes, sizeof bytes);
  const int read_errno = errno;
  CloseTransientFile(fd);
  if (n < 0) {
    errno = read_errno;
    ereport(FATAL,
            (errcode_for_file_access(),
             errmsg("could not read idgen's generator mark file \"%s\": %m", kMarkFileName)));
  }
  const std::optional<std::int64_t> mark =
      generator_mark::decode(bytes, static_cast<std::size_t>(n));
  if (!mark) {
    ereport(FATAL,
            (errcode(ERRCODE_DATA_CORRUPTED),
             errmsg("idgen's generator mark in file \"%s\" is damaged", kMarkFileName),
             errdetail("Without it idgen's server-wide generators could hand out ids again."),
             errhint("Restore the file from a backup of this data directory, or remove it: idgen "
                     "then takes the mark from the WAL that crash recovery replays or, when that "
                     "holds none, from every database's generator mark, before the first id.")));
  }
  return mark;
}

// Writes all of the mark's bytes at the file's start and fsyncs it; closes fd either way.
MarkFileWrite write_and_sync(int fd, const std::uint8_t* bytes) {
  errno = 0;
  const ssize_t n = pg_pwrite(fd, bytes, generator_mark::kEncodedBytes, 0);
  // A short write of 16 bytes into an empty or 16-byte file means the file system is full.
  const int write_error =
      n == static_cast<ssize_t>(generator_mark::kEncodedBytes) ? 0 : (errno != 0 ? errno : ENOSPC);
  const int sync_error = write_error == 0 && pg_fsync(fd) != 0 ? errno : 0;
  const int close_error = CloseTransientFile(fd) != 0 ? errno : 0;
  if (write_error != 0) return failed_with(write_error);
  if (sync_error != 0) return failed_with(sync_error);
  if (close_error != 0) return failed_with(close_error);
  return kWritten;
}

// fsyncs the data directory, so that a rename in it is durable. (Some systems refuse to fsync a
// directory; PostgreSQL ignores that as well.)
MarkFileWrite sync_data_directory() {
  const int fd = OpenTransientFile(".", O_RDONLY | PG_BINARY);
  if (fd < 0) return failed_with(errno);
  const int sync_error = pg_fsync(fd) != 0 && errno != EBADF && errno != EINVAL ? errno : 0;
  const int close_error = CloseTransientFile(fd) != 0 ? errno : 0;
  if (sync_error != 0) return failed_with(sync_error);
  if (close_error != 0) return failed_with(close_error);
  return kWritten;
}

// The mark in a new file, fsynced and renamed over the old one. `renamed` says whether the rename
// happened: after it, only the directory's fsync can have failed, and writing the old file in
// place would not help.
MarkFileWrite replace_file(const std::uint8_t* bytes, bool* renamed) {
  *renamed = false;
  const int fd = OpenTransientFile(kTempFileName, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
  if (fd < 0) return failed_with(errno);
  const MarkFileWrite written = write_and_sync(fd, bytes);
  if (!written.ok) {
    (void)unlink(kTempFileName);
    return written;
  }
  if (rename(kTempFileName, kMarkFileName) != 0) {
    const int rename_error = errno;
    (void)unlink(kTempFileName);
    return failed_with(rename_error);
  }
  *renamed = true;
  return sync_data_directory();
}

// The mark written over the old file's, in place: 16 bytes in one sector, which a crash leaves
// whole or not written (the CRC tells).
MarkFileWrite overwrite_file(const std::uint8_t* bytes) {
  const int fd = OpenTransientFile(kMarkFileName, O_WRONLY | PG_BINARY);
  if (fd < 0) return failed_with(errno);
  return write_and_sync(fd, bytes);
}

// Replaces the file's mark, durably: a new file fsynced and renamed over the old one (so that a
// copy of the data directory never reads half of it), or, when no new file can be made there (a
// read-only directory, a full file system), the old file overwritten in place and fsynced, as
// PostgreSQL writes pg_control. Raises nothing: the caller decides what a failure means.
MarkFileWrite write_mark_file(std::int64_t mark_ms) {
  std::uint8_t bytes[generator_mark::kEncodedBytes];
  generator_mark::encode(mark_ms, bytes);
  bool renamed = false;
  const MarkFileWrite replaced = replace_file(bytes, &renamed);
  if (replaced.ok || renamed) return replaced;
  const MarkFileWrite overwritten = overwrite_file(bytes);
  // The first attempt's cause (the directory, the file system) says more than the second's.
  return overwritten.ok ? overwritten : replaced;
}

// Reports a failed write at `level`: ERROR for an id that needs the mark, WARNING during
// recovery (which goes on with the mark in shared memory).
void report_mark_file_failure(const MarkFileWrite& failed, int level) {
  errno = failed.error;
  const bool recovering = level < ERROR;
  ereport(
      level,
      (errcode_for_file_access(),
       recovering
           ? errmsg("could not write idgen's generator mark to file \"%s\" during "
                    "recovery: %m",
                    kMarkFileName)
           : errmsg("could not write idgen's generator mark to file \"%s\": %m", kMarkFileName),
       recovering ? errdetail("Recovery goes on with the replayed mark in shared memory. idgen's "
                              "server-wide generators hand out no id past it until the file can be "
                              "written.")
                  : errdetail("idgen's server-wide generators hand out no id past the mark until "
                              "the file is written, so that no id can come back after a restart. "
                              "Other generators and sequences are not affected."),
       errhint("Make the file \"%s\" and the data directory writable by the server's user, "
               "or free space on their file system: the generators resume at once.",
               kMarkFileName)));
}

// ---- the WAL record ----

// Logs the mark in WAL and flushes it, so that it reaches a standby before any commit that
// carries ids under it.
void log_mark(std::int64_t mark_ms) {
  char bytes[generator_mark::kEncodedBytes];
  generator_mark::encode(mark_ms, reinterpret_cast<std::uint8_t*>(bytes));
  XLogBeginInsert();
  XLogRegisterData(bytes, sizeof bytes);
  XLogFlush(XLogInsert(kMarkRmgrId, kMarkInfo));
}

std::int64_t decode_or_fail(const std::uint8_t* bytes, std::size_t n, const char* where) {
  const std::optional<std::int64_t> mark = generator_mark::decode(bytes, n);
  if (!mark) {
    ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("idgen's generator mark in %s is damaged", where)));
    pg_unreachable();
  }
  return *mark;
}

// ---- the one writer ----

enum class MarkWrite {
  raise,   // a new mark for the ids to come: logged in WAL after the file
  replay,  // a mark WAL replay read: published even when the file cannot be written
};

// Under mark_lock: the one way the mark becomes durable. The file first, then (raise) the WAL
// record and the point past which the next mark is raised ahead, then the word every id reads. A
// file that cannot be written adds nothing to WAL; a raise then publishes nothing either.
MarkFileWrite persist_mark_locked(MarkWrite kind, std::int64_t mark_ms,
                                  std::int64_t raise_after_ms) {
  const MarkFileWrite written = write_mark_file(mark_ms);
  if (kind == MarkWrite::raise) {
    if (!written.ok) return written;
    log_mark(mark_ms);
    store(&shared_mark->raise_after_ms, raise_after_ms);
  }
  store(&shared_mark->mark_ms, mark_ms);
  return written;
}

// The clock reading from which to look at the mark again when raising it now brought nothing (no
// higher mark was due, or the file could not be written): halfway to the mark, so that attempts
// thin out instead of coming with every id.
std::int64_t retry_point(std::int64_t mark_ms, std::int64_t clock_ms) {
  const std::int64_t half = (mark_ms - clock_ms) / 2;
  return clock_ms + (half > 1 ? half : 1);
}

// Under mark_lock: writes a higher mark. The mark goes at most the margin past the clock
// (core/generator_mark.hpp): less while the clock leads the wall clock after a start, so that
// crashes in a row do not push the clock further ahead. A write that fails raises an ERROR when
// the id needs the mark, and is tried again later when it was only raised ahead of need.
// Returns whether it wrote one.
bool raise_mark_locked(std::int64_t clock_ms, std::int64_t id_ms) {
  const std::int64_t mark = load(&shared_mark->mark_ms);
  const bool covered = generator_mark::covers(mark, id_ms);
  if (covered && clock_ms <= load(&shared_mark->raise_after_ms)) return false;
  const std::int64_t wall_ms = floor_div(clock::real_now_unix_us(), 1000);
  const std::int64_t margin =
      generator_mark::margin(clock_ms, wall_ms, ms_since_server_clock_started());
  const std::int64_t next = generator_mark::next_mark(clock_ms, id_ms, margin);
  if (next <= mark) {  // only ahead of need: nothing to gain yet
    store(&shared_mark->raise_after_ms, retry_point(mark, clock_ms));
    return false;
  }
  const MarkFileWrite written =
      persist_mark_locked(MarkWrite::raise, next, generator_mark::raise_point(next, margin));
  if (written.ok) return true;
  if (!covered) report_mark_file_failure(written, ERROR);
  store(&shared_mark->raise_after_ms, retry_point(mark, clock_ms));
  return false;
}

}  // namespace

SharedMark* shared_mark = nullptr;

std::size_t mark_shmem_size() { return MAXALIGN(sizeof(SharedMark)); }

void request_mark_lock() { RequestNamedLWLockTranche(kLockTranche, 1); }

std::int64_t attach_mark() {
  bool found = false;
  auto* mem =
      static_cast<SharedMark*>(ShmemInitStruct("idgen generator mark", sizeof(SharedMark), &found));
  std::int64_t mark = 0;
  if (!found) {
    const std::optional<std::int64_t> in_file = read_mark_file();
    mark = in_file.value_or(0);
    pg_atomic_init_u64(&mem->mark_ms, static_cast<std::uint64_t>(mark));
    pg_atomic_init_u64(&mem->raise_after_ms, static_cast<std::uint64_t>(mark));
    pg_atomic_init_u32(&mem->file_missing, in_file ? 0 : 1);
    pg_atomic_init_u32(&mem->took_databases, 0);
  }
  shared_mark = mem;
  mark_lock = &GetNamedLWLockTranche(kLockTranche)[0].lock;
  return mark;
}

// The mark must rise (an id passes it), or may (it is close): cover_id_time() decided inline.
bool raise_mark_for(std::int64_t clock_ms, std::int64_t id_ms, bool covered) {
  if (RecoveryInProgress()) return false;
  if (covered) {
    // Ahead of need: only if no other session is writing the mark right now.
    if (!LWLockConditionalAcquire(mark_lock, LW_EXCLUSIVE)) return false;
  } else {
    LWLockAcquire(mark_lock, LW_EXCLUSIVE);
  }
  const bool wrote = raise_mark_locked(clock_ms, id_ms);
  LWLockRelease(mark_lock);
  return wrote;
}

void adopt_mark(std::int64_t mark_ms) {
  raise_server_clock(generator_mark::clock_floor_us(mark_ms));
  place_distributed_id_after(mark_ms);
}

void adopt_databases_mark(std::int64_t mark_ms) {
  adopt_mark(mark_ms);
  pg_atomic_write_u32(&shared_mark->took_databases, 1);
}

bool start_took_database_marks() {
  return shared_mark != nullptr && pg_atomic_read_u32(&shared_mark->took_databases) != 0;
}

bool mark_file_missing_at_start() { return pg_atomic_read_u32(&shared_mark->file_missing) != 0; }

void redo_mark(XLogReaderState* record) noexcept {
  const std::uint8_t info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
  if (info != kMarkInfo) elog(PANIC, "idgen: unknown WAL record type %u", info);
  const auto* data = reinterpret_cast<const std::uint8_t*>(XLogRecGetData(record));
  const std::int64_t mark = decode_or_fail(data, XLogRecGetDataLen(record), "a WAL record");
  LWLockAcquire(mark_lock, LW_EXCLUSIVE);
  if (mark > load(&shared_mark->mark_ms)) {
    const MarkFileWrite written = persist_mark_locked(MarkWrite::replay, mark, 0);
    if (!written.ok && !replay_write_failure_reported) {
      report_mark_file_failure(written, WARNING);
      replay_write_failure_reported = true;
    }
  }
  LWLockRelease(mark_lock);
}

void describe_mark(StringInfo buf, XLogReaderState* record) noexcept {
  const auto* data = reinterpret_cast<const std::uint8_t*>(XLogRecGetData(record));
  const std::optional<std::int64_t> mark = generator_mark::decode(data, XLogRecGetDataLen(record));
  if (mark) {
    appendStringInfo(buf, "mark %lld", static_cast<long long>(*mark));
  } else {
    appendStringInfoString(buf, "damaged mark");
  }
}

const char* identify_mark(uint8 info) noexcept {
  return (info & ~XLR_INFO_MASK) == kMarkInfo ? "MARK" : nullptr;
}

std::int64_t start_after_replayed_mark() {
  const std::int64_t mark = load(&shared_mark->mark_ms);
  if (mark > 0) adopt_mark(mark);
  note_server_clock_started();
  return mark;
}

}  // namespace idgen::pg
