// The generator mark of each database (docs/durability.md): the sequence idgen.generator_mark,
// which pg_dump and pg_upgrade carry to another server. The server-wide mark
// (pg/server_clock.hpp) lives in the data directory and in WAL, which neither of them copies; so
// each database also keeps a mark at least the time of any id made while it was in use, and a
// server that finds a later mark in a database (restored or upgraded into it) adopts it before
// its first id there.
#pragma once

#include <cstdint>

#include "core/stack_safe.hpp"

namespace idgen::pg {

// What this backend knows of its database's mark: every id pays the checks below, so they are
// inline, and only the rare call goes out of line.
struct DatabaseMarkSeen {
  bool adopted;           // the database's mark was read (once per backend)
  std::int64_t recorded;  // the highest mark this backend wrote or read there
};
IDGEN_STACK_SAFE(DatabaseMarkSeen);
extern DatabaseMarkSeen database_mark_seen;

void adopt_database_mark_now();
void record_in_database_mark_now(std::int64_t id_ms);

// This database's mark, read as the sequences' owner (no privilege needed); 0 when the database
// has no idgen, an idgen that predates the mark, or no mark yet. In a transaction. (A start that
// found no mark file reads every database's with it: pg/mark_scan.hpp.)
std::int64_t database_mark_of_this_database();

// Before this backend's first server-wide id: adopts the database's mark when another server
// wrote it (a restore, an upgrade). Once per backend; later calls return at once.
inline void adopt_database_mark() {
  if (!database_mark_seen.adopted) adopt_database_mark_now();
}

// After an id whose time is id_ms: raises the database's mark to the server's when it is below
// id_ms (about every 2 s per backend while ids are made). Skipped where a sequence cannot be
// written (read-only transaction, parallel mode, recovery, a database whose extension predates
// the mark); the next id made in a writable transaction catches up.
inline void record_in_database_mark(std::int64_t id_ms) {
  if (id_ms > database_mark_seen.recorded) record_in_database_mark_now(id_ms);
}

}  // namespace idgen::pg
