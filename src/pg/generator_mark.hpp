// Where the generator mark (pg/server_clock.hpp) is made durable: a file in the data directory,
// which a restart and a crash find and pg_basebackup copies, and a WAL record of idgen's own
// resource manager, which crash recovery and standbys replay.
#pragma once

#include <cstdint>

namespace idgen::pg {

// The custom WAL resource manager id idgen registers (docs/durability.md). Another extension
// registering the same id stops the server at start with PostgreSQL's own message.
constexpr int kMarkRmgrId = 161;

// From _PG_init while idgen is being preloaded.
void register_mark_wal();

// The mark in the data directory's file, 0 when there is none. A damaged file stops the start
// (FATAL): starting without it could hand out ids again.
std::int64_t read_mark_file();

// Replaces the file's mark, durably (a new file fsynced and renamed over the old one).
void write_mark_file(std::int64_t mark_ms);

// Logs the mark in WAL and flushes it, so that it reaches a standby before any commit that
// carries ids under it.
void log_mark(std::int64_t mark_ms);

}  // namespace idgen::pg
