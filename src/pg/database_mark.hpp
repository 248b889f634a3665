// The generator mark of each database (docs/durability.md): the sequence idgen.generator_mark,
// which pg_dump and pg_upgrade carry to another server. The server-wide mark
// (pg/server_clock.hpp) lives in the data directory and in WAL, which neither of them copies; so
// each database also keeps a mark at least the time of any id made while it was in use, and a
// server that finds a later mark in a database (restored or upgraded into it) adopts it before
// its first id there.
#pragma once

#include <cstdint>

namespace idgen::pg {

// Before this backend's first server-wide id: adopts the database's mark when it is later than
// the server's. Once per backend; later calls return at once.
void adopt_database_mark();

// After an id whose time is id_ms: raises the database's mark to the server's when it is below
// id_ms (about once a second per backend while ids are made). Skipped where a sequence cannot be
// written (read-only transaction, parallel mode, recovery, a database whose extension predates
// the mark); the next id written elsewhere catches up.
void record_in_database_mark(std::int64_t id_ms);

}  // namespace idgen::pg
