// Where the generator mark (pg/generators/server_clock.hpp) is made durable: a file in the data
// directory, which a restart and a crash find and pg_basebackup copies, and a WAL record of idgen's
// own resource manager, which crash recovery and standbys replay.
#pragma once

#include <cstdint>
#include <optional>

#include "core/stack_safe.hpp"

namespace idgen::pg {

// The custom WAL resource manager id idgen registers (docs/durability.md). Another extension
// registering the same id stops the server at start with PostgreSQL's own message.
constexpr int kMarkRmgrId = 161;

// From _PG_init while idgen is being preloaded.
void register_mark_wal();

// The file's name in the data directory, for messages.
extern const char* const kMarkFileName;

// The mark in the data directory's file; nullopt when there is no file (a new server, or one whose
// file was lost: pg/generators/mark_scan.hpp then finds the mark elsewhere). A damaged or
// unreadable file stops the start (FATAL): starting without it could hand out ids again.
std::optional<std::int64_t> read_mark_file();

// What writing the file came to: ok, or the errno of the step that failed.
struct MarkFileWrite {
  bool ok;
  int error;
};
IDGEN_STACK_SAFE(MarkFileWrite);

// Replaces the file's mark, durably: a new file fsynced and renamed over the old one (so that a
// copy of the data directory never reads half of it), or, when no new file can be made there (a
// read-only directory, a full file system), the old file overwritten in place and fsynced, as
// PostgreSQL writes pg_control. Raises nothing: the caller decides what a failure means.
MarkFileWrite write_mark_file(std::int64_t mark_ms);

// Reports a failed write at `level`: ERROR for an id that needs the mark, WARNING during
// recovery (which goes on with the mark in shared memory).
void report_mark_file_failure(const MarkFileWrite& failed, int level);

// Logs the mark in WAL and flushes it, so that it reaches a standby before any commit that
// carries ids under it.
void log_mark(std::int64_t mark_ms);

}  // namespace idgen::pg
