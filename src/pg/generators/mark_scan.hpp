// A start that finds no generator mark file (docs/durability.md: lost, or removed as the damaged
// file's HINT says) still starts the server-wide generators after every id they handed out: the
// mark has other copies, the WAL that crash recovery replays and each database's own mark
// (pg/generators/database_mark.hpp), which covers the ids made there. A mark replayed from WAL is
// the newest of them (every database's mark was copied from an earlier one), and is taken as it is;
// without one, every database's mark that this server wrote is read before the first server-wide id
// of any database, since the mark is the server's (Snowflake ids are unique per server, across its
// databases). A mark another server wrote (a restored or upgraded database) is not this server's
// to take here: it is adopted, or refused when far ahead, at the first id in its own database.
//
// A backend reads only its own database, so the reading is done by background workers: one that
// lists the databases (connected to none) and starts a reader per database (at most a few at a
// time), each of which reads its database's mark into shared memory. The first backend that needs
// an id starts them, and every backend that needs one waits for the result (interruptibly, and at
// most kAwaitMs). Starting them then, rather than at every start, costs nothing on a server whose
// file is there (every start but the rare one without it), and the session that waits is the one
// that hears why, when they cannot run (max_worker_processes).
#pragma once

#include <cstddef>
#include <cstdint>

#include "pg/postgres.hpp"

namespace idgen::pg {

// The shared memory of the reading (pg/generators/runtime.cpp requests it), and, in the
// postmaster under AddinShmemInitLock, its placement: after the mark's, which says whether the
// start found the file.
std::size_t mark_scan_shmem_size();
void attach_mark_scan();

// Whether this backend knows that the start's mark is known; set once per backend.
extern bool start_mark_known IDGEN_HIDDEN;
void await_start_mark_now();

// Before a server-wide step: returns once the mark the start should continue from is known (at
// once, but after a start without the file). Raises an ERROR when the databases' marks cannot
// be read, or not within kAwaitMs.
inline void await_start_mark() {
  if (!start_mark_known) await_start_mark_now();
}

// WAL replay restored a mark: the newest copy, so no database needs reading.
void start_mark_replayed();

// At the end of recovery: when the start found no file and took the mark from WAL, says so.
void report_start_mark_from_wal(std::int64_t mark_ms);

}  // namespace idgen::pg
