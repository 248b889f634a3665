// The server-wide generators' durable mark, end to end (docs/durability.md; the rules are in
// core/generator_mark.hpp): the shared word every id reads, the lock of its one writer at a
// time, raising it, adopting a mark found elsewhere, its file in the data directory, its WAL
// record and that record's redo. Present only when idgen is preloaded.
//
// Every id a server-wide generator hands out has a time at most the mark. Before an id passes
// it, the mark is raised: written to a file in the data directory (so a restart and a crash find
// it, and pg_basebackup copies it) and logged in WAL with idgen's own resource manager (so crash
// recovery and standbys replay it), both before the id is returned; the file first, so that a
// file that cannot be written adds nothing to WAL (persist_mark_locked). A server that starts
// runs the generator clock (pg/generators/server_clock.hpp) from after the mark it finds (in the
// file, in the WAL it replays, or, without a file, in its databases:
// pg/generators/mark_scan.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/generator_mark.hpp"
#include "core/stack_safe.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlogreader.h"
#include "lib/stringinfo.h"
#include "port/atomics.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// The custom WAL resource manager id idgen registers (docs/durability.md). Another extension
// registering the same id stops the server at start with PostgreSQL's own message.
constexpr int kMarkRmgrId = 161;

// The file's name in the data directory, for messages.
extern const char* const kMarkFileName;

// The shared words, each int64 stored as its bits. Every server-wide id reads the first two, so
// the checks below are inline and only the rare case goes out of line.
struct SharedMark {
  pg_atomic_uint64 mark_ms;         // the durable mark, 0 before the first
  pg_atomic_uint64 raise_after_ms;  // the clock reading past which the mark is raised ahead
  pg_atomic_uint32 file_missing;    // 1: the start found no mark file (pg/generators/mark_scan.hpp)
  pg_atomic_uint32 took_databases;  // 1: the start took the databases' marks instead
};
IDGEN_STACK_SAFE(SharedMark);
extern SharedMark* shared_mark IDGEN_HIDDEN;  // set in every process when preloaded

// The shared memory the mark needs, and its lock (pg/generators/runtime.cpp requests them).
std::size_t mark_shmem_size();
void request_mark_lock();
// In the postmaster, under AddinShmemInitLock: places the shared mark; when it is new, reads it
// from the file and returns it (0: no file, or no mark yet). A damaged or unreadable file stops
// the start (FATAL): starting without it could hand out ids again.
std::int64_t attach_mark();

// The durable mark (Unix ms), 0 before the first.
inline std::int64_t durable_mark_ms() {
  return static_cast<std::int64_t>(pg_atomic_read_u64(&shared_mark->mark_ms));
}

// Whether it wrote a mark.
bool raise_mark_for(std::int64_t clock_ms, std::int64_t id_ms, bool covered);

// Makes sure the mark covers an id whose time (Unix ms) is id_ms, made at generator clock ms
// clock_ms; raises it (the file, then WAL, durably) when needed, and a little before it is needed
// when nobody else is raising it. Call it after the step and before the id is returned, outside
// any spinlock: it may wait for the mark's lock and for the writes. Raises an ERROR when the id
// needs a mark that cannot be written. Does nothing during recovery, where no WAL can be written
// (Snowflake refuses to run there). Returns whether this call wrote a mark.
inline bool cover_id_time(std::int64_t clock_ms, std::int64_t id_ms) {
  const std::int64_t mark = durable_mark_ms();
  const bool covered = generator_mark::covers(mark, id_ms);
  if (covered &&
      clock_ms <= static_cast<std::int64_t>(pg_atomic_read_u64(&shared_mark->raise_after_ms))) {
    return false;
  }
  return raise_mark_for(clock_ms, id_ms, covered);
}

// Adopts a mark found elsewhere (a database restored or upgraded from another server, the
// databases' marks read by a start that found no file): the clock moves past it and
// DistributedId's shared state after it, so the next ids sort after every id it covers. The
// durable mark rises with the next id, which the adopted mark does not cover.
void adopt_mark(std::int64_t mark_ms);

// The start found no file and adopts the newest of the databases' marks
// (pg/generators/mark_scan.hpp): a mark that no WAL record of this server has carried yet
// (pg/generators/standby_gate.hpp).
void adopt_databases_mark(std::int64_t mark_ms);
bool start_took_database_marks();

// Whether the start found no mark file (pg/generators/mark_scan.hpp reads the databases' marks
// then).
bool mark_file_missing_at_start();

// The WAL record's redo (crash recovery, a standby): raises the shared mark and the file to it.
// A file that cannot be written does not stop recovery: it says so once and keeps the mark in
// shared memory.
void redo_mark(XLogReaderState* record) noexcept;
// The record for pg_waldump and pg_get_wal_records_info.
void describe_mark(StringInfo buf, XLogReaderState* record) noexcept;
const char* identify_mark(uint8 info) noexcept;

// When recovery ends (crash recovery, a standby's promotion): the generator clock moves past the
// replayed mark, so the ids of the new primary sort after the old primary's. Returns the mark.
std::int64_t start_after_replayed_mark();

}  // namespace idgen::pg
