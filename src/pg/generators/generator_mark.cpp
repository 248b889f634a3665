// See generator_mark.hpp.
#include "pg/generators/generator_mark.hpp"

#include <cerrno>
#include <cstdint>
#include <optional>

#include <fcntl.h>
#include <unistd.h>

#include "core/generator_mark.hpp"
#include "pg/callback.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/server_clock.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "lib/stringinfo.h"
#include "storage/fd.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

const char* const kMarkFileName = "idgen_generator_mark";

namespace {

constexpr const char* kTempFileName = "idgen_generator_mark.tmp";
constexpr std::uint8_t kMarkInfo = 0x00;  // the one record type: "the mark is now ..."

std::int64_t decode_or_fail(const std::uint8_t* bytes, std::size_t n, const char* where) {
  const std::optional<std::int64_t> mark = generator_mark::decode(bytes, n);
  if (!mark) {
    ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("idgen's generator mark in %s is damaged", where)));
    pg_unreachable();
  }
  return *mark;
}

void redo_mark(XLogReaderState* record) noexcept {
  const std::uint8_t info = XLogRecGetInfo(record) & ~XLR_INFO_MASK;
  if (info != kMarkInfo) elog(PANIC, "idgen: unknown WAL record type %u", info);
  const auto* data = reinterpret_cast<const std::uint8_t*>(XLogRecGetData(record));
  apply_replayed_mark(decode_or_fail(data, XLogRecGetDataLen(record), "a WAL record"));
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

// End of recovery (after a crash, or a standby's promotion): the generators start after the
// replayed mark.
void after_recovery() noexcept { start_clock_after_mark(); }

RmgrData mark_rmgr = {};

// Stops the start: the file is there but cannot be read (errno is the cause).
[[noreturn]] void report_unreadable_file(const char* what) {
  ereport(FATAL,
          (errcode_for_file_access(),
           errmsg("could not %s idgen's generator mark file \"%s\": %m", what, kMarkFileName),
           errhint("Make it readable by the server's user.")));
  pg_unreachable();
}

constexpr MarkFileWrite kWritten = {true, 0};

MarkFileWrite failed_with(int error) { return {false, error != 0 ? error : EIO}; }

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

}  // namespace

void register_mark_wal() {
  mark_rmgr.rm_name = "idgen";
  mark_rmgr.rm_redo = noexcept_callback(redo_mark);
  mark_rmgr.rm_desc = noexcept_callback(describe_mark);
  mark_rmgr.rm_identify = noexcept_callback(identify_mark);
  mark_rmgr.rm_cleanup = noexcept_callback(after_recovery);
  RegisterCustomRmgr(kMarkRmgrId, &mark_rmgr);
}

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

void log_mark(std::int64_t mark_ms) {
  char bytes[generator_mark::kEncodedBytes];
  generator_mark::encode(mark_ms, reinterpret_cast<std::uint8_t*>(bytes));
  XLogBeginInsert();
  XLogRegisterData(bytes, sizeof bytes);
  XLogFlush(XLogInsert(kMarkRmgrId, kMarkInfo));
}

}  // namespace idgen::pg
