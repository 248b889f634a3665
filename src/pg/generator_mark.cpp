// See generator_mark.hpp.
#include "pg/generator_mark.hpp"

#include <cerrno>
#include <cstdint>
#include <optional>

#include <fcntl.h>
#include <unistd.h>

#include "core/generator_mark.hpp"
#include "pg/callback.hpp"
#include "pg/postgres.hpp"
#include "pg/server_clock.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "lib/stringinfo.h"
#include "storage/fd.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

constexpr const char* kFileName = "idgen_generator_mark";
constexpr const char* kTempFileName = "idgen_generator_mark.tmp";
constexpr std::uint8_t kMarkInfo = 0x00;  // the one record type: "the mark is now ..."

// Raises a file error (errno is the cause) at `level` (FATAL at start, else ERROR).
[[noreturn]] void report_file_error(int level, const char* what, const char* file) {
  ereport(level, (errcode_for_file_access(), errmsg("could not %s file \"%s\": %m", what, file)));
  pg_unreachable();
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

}  // namespace

void register_mark_wal() {
  mark_rmgr.rm_name = "idgen";
  mark_rmgr.rm_redo = noexcept_callback(redo_mark);
  mark_rmgr.rm_desc = noexcept_callback(describe_mark);
  mark_rmgr.rm_identify = noexcept_callback(identify_mark);
  mark_rmgr.rm_cleanup = noexcept_callback(after_recovery);
  RegisterCustomRmgr(kMarkRmgrId, &mark_rmgr);
}

std::int64_t read_mark_file() {
  const int fd = OpenTransientFile(kFileName, O_RDONLY | PG_BINARY);
  if (fd < 0) {
    if (errno == ENOENT) return 0;
    report_file_error(FATAL, "open", kFileName);
  }
  std::uint8_t bytes[generator_mark::kEncodedBytes + 1];
  const ssize_t n = read(fd, bytes, sizeof bytes);
  const int read_errno = errno;
  CloseTransientFile(fd);
  if (n < 0) {
    errno = read_errno;
    report_file_error(FATAL, "read", kFileName);
  }
  const std::optional<std::int64_t> mark =
      generator_mark::decode(bytes, static_cast<std::size_t>(n));
  if (!mark) {
    ereport(FATAL,
            (errcode(ERRCODE_DATA_CORRUPTED),
             errmsg("idgen's generator mark in file \"%s\" is damaged", kFileName),
             errdetail("Without it idgen's server-wide generators could hand out ids again."),
             errhint("Restore the file from a backup of this data directory, or, to start the "
                     "generators from the clock alone, remove it.")));
    pg_unreachable();
  }
  return *mark;
}

void write_mark_file(std::int64_t mark_ms) {
  std::uint8_t bytes[generator_mark::kEncodedBytes];
  generator_mark::encode(mark_ms, bytes);
  const int fd = OpenTransientFile(kTempFileName, O_WRONLY | O_CREAT | O_TRUNC | PG_BINARY);
  if (fd < 0) report_file_error(ERROR, "create", kTempFileName);
  errno = 0;
  if (write(fd, bytes, sizeof bytes) != static_cast<ssize_t>(sizeof bytes)) {
    if (errno == 0) errno = ENOSPC;
    const int write_errno = errno;
    CloseTransientFile(fd);
    errno = write_errno;
    report_file_error(ERROR, "write", kTempFileName);
  }
  if (CloseTransientFile(fd) != 0) report_file_error(ERROR, "close", kTempFileName);
  // fsyncs the new file, renames it over the old one and fsyncs the directory.
  (void)durable_rename(kTempFileName, kFileName, ERROR);
}

void log_mark(std::int64_t mark_ms) {
  char bytes[generator_mark::kEncodedBytes];
  generator_mark::encode(mark_ms, reinterpret_cast<std::uint8_t*>(bytes));
  XLogBeginInsert();
  XLogRegisterData(bytes, sizeof bytes);
  XLogFlush(XLogInsert(kMarkRmgrId, kMarkInfo));
}

}  // namespace idgen::pg
