// The first generator mark a server logs in WAL, and its physical standbys (docs/upgrading.md).
//
// A standby replays idgen's WAL records (pg/generators/generator_mark.hpp) only when it preloads
// idgen 0.3.0 or later; an older one stops at the first of them ("resource manager with ID 161 not
// registered"), whose hint it already follows (it preloads idgen), and cannot start again until
// idgen is updated there. A primary cannot see which idgen its standbys run, but it can see that
// it has some, and that it ran an idgen which logged no marks: its data directory holds no mark
// yet, while the database it makes ids in holds idgen objects older than 0.3.0, or a mark that
// this server set without logging one (ALTER EXTENSION UPDATE from such a release sets it). Then
// it refuses the server-wide ids that would log its first mark, before making them, with an
// error that names the standbys it sees (WAL senders of physical replication, physical
// replication slots) and the fix, until idgen.standbys_replay_marks is on. The standbys go on
// replaying everything else meanwhile. A standby without a slot is seen only while it is
// connected: one still reconnecting to a primary that has just restarted is not.
//
// No other server meets the gate: one without standbys, one whose data directory has a mark (it
// ran 0.3.0 or later preloaded and made server-wide ids), one whose databases were created by
// 0.3.0 or later (a new server whose standbys were set up before its first id) or restored or
// upgraded from another server (pg_dump, pg_upgrade).
#pragma once

namespace idgen::pg {

// From adopt_database_mark_now (pg/generators/database_mark.cpp), before a backend's first
// server-wide id, which may log the server's first mark: database_used_before says the database's
// idgen objects predate the mark, or this server set its mark. Raises the error above when the gate
// is closed.
void check_standbys_before_first_mark(bool database_used_before);

}  // namespace idgen::pg
