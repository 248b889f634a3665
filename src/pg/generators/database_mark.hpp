// The generator mark of each database (docs/durability.md): the sequence
// idgen_internal.generator_mark, which pg_dump and pg_upgrade carry to another server. The
// server-wide mark (pg/generators/generator_mark.hpp) lives in the data directory and in WAL, which
// neither of them copies; so each database also keeps a mark at least the time of any id made while
// it was in use, and a server that finds a later mark in a database (restored or upgraded into it,
// or left there when the server's own file was lost) adopts it before its first id there.
//
// The sequences sit in schema idgen_internal, which no role but the database's owner (and
// superusers) may use: a role that can name a relation can queue a lock on it (CREATE RULE and
// CREATE TRIGGER lock before they check ownership), and every later lock request, idgen's own
// among them, waits behind the queued one.
#pragma once

#include <cstdint>

#include "core/stack_safe.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

// What this backend knows of its database's mark: every id pays the checks below, so they are
// inline, and only the rare call goes out of line.
struct DatabaseMarkSeen {
  bool adopted;           // the database's mark was read (once per backend)
  std::int64_t recorded;  // the highest mark this backend wrote or read there
};
IDGEN_STACK_SAFE(DatabaseMarkSeen);
extern DatabaseMarkSeen database_mark_seen IDGEN_HIDDEN;

void adopt_database_mark_now();
void record_in_database_mark_now(std::int64_t id_ms);

// This database's mark when this server wrote it (or a server with its system identifier: the
// primary it was a standby of, the server it is a base backup of), else 0: no idgen, one that
// predates the mark, no mark yet, or another server's (a restore or an upgrade, adopted per
// database within idgen.mark_max_lead). Read as the sequences' owner, in a transaction. (A start
// that found no mark file reads every database's with it: pg/generators/mark_scan.hpp.)
std::int64_t own_database_mark();

// Before this backend's first server-wide id: adopts the database's mark when another server
// wrote it (a restore, an upgrade) or when it is above the server's (the server's file was lost).
// Once per backend; later calls return at once. A mark of another server further ahead of the
// server clock than idgen.mark_max_lead is refused (ERROR), and asked again at the next id.
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

// Raises this database's mark to mark_ms (never lowers it) and makes this server its origin, now,
// as the sequences' owner: idgen.snowflake_reserve_through(). The caller checks that the
// transaction may write (setval refuses otherwise) and, in server scope, adopts the database's
// mark first (adopt_database_mark). In backend scope a mark of another server that was never
// adopted becomes this server's own: the server's generators adopt the higher of the two at their
// first id here once idgen is preloaded, as they adopt any mark of their own above theirs.
void reserve_in_database_mark(std::int64_t mark_ms);

// The database's mark (Unix ms) and the system identifier of the server that wrote it (as a
// bigint's bits); both 0 when the database has no mark (no idgen, or one older than 0.3.0).
struct DatabaseMark {
  std::int64_t mark_ms;
  std::int64_t origin;
};
IDGEN_STACK_SAFE(DatabaseMark);
DatabaseMark read_database_mark();

}  // namespace idgen::pg
