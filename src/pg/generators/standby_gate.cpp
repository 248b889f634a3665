// See standby_gate.hpp. Also idgen.standbys_replay_marks, which only the gate reads.
#include "pg/generators/standby_gate.hpp"

#include "pg/compat.hpp"
#include "pg/gucs.hpp"
#include "pg/postgres.hpp"
#include "pg/generators/generator_mark.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "access/xlog.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "replication/slot.h"
#include "storage/lwlock.h"
#include "storage/spin.h"
#include "utils/backend_status.h"
#include "utils/guc.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {
namespace {

bool standbys_replay_marks = false;

// Adds "name" to a list of names separated by ", ".
void append_name(StringInfo list, const char* name) {
  if (list->len > 0) appendStringInfoString(list, ", ");
  appendStringInfo(list, "\"%s\"", name);
}

// The physical WAL senders running now (standbys streaming or catching up, and also
// pg_basebackup or pg_receivewal, whose WAL may feed a standby later): a logical one is connected
// to a database, a physical one is not. Their application names (pid where there is none) go to
// `names`; returns how many there are.
int physical_wal_senders(StringInfo names) {
  int found = 0;
  const int backends = pgstat_fetch_stat_numbackends();
  for (int i = 1; i <= backends; ++i) {
    const PgBackendStatus* status = backend_status_entry(i);
    if (status == nullptr || status->st_backendType != B_WAL_SENDER ||
        OidIsValid(status->st_databaseid)) {
      continue;
    }
    if (status->st_appname != nullptr && status->st_appname[0] != '\0') {
      append_name(names, status->st_appname);
    } else {
      if (names->len > 0) appendStringInfoString(names, ", ");
      appendStringInfo(names, "pid %d", status->st_procpid);
    }
    ++found;
  }
  return found;
}

// The physical replication slots (a standby that is down keeps its slot); their names go to
// `names`; returns how many there are.
int physical_slots(StringInfo names) {
  if (ReplicationSlotCtl == nullptr) return 0;  // max_replication_slots = 0
  int found = 0;
  LWLockAcquire(ReplicationSlotControlLock, LW_SHARED);
  for (int i = 0; i < max_replication_slots; ++i) {
    ReplicationSlot* slot = &ReplicationSlotCtl->replication_slots[i];
    if (!slot->in_use) continue;
    SpinLockAcquire(&slot->mutex);
    const bool physical = SlotIsPhysical(slot);
    NameData name = slot->data.name;
    SpinLockRelease(&slot->mutex);
    if (!physical) continue;
    append_name(names, NameStr(name));
    ++found;
  }
  LWLockRelease(ReplicationSlotControlLock);
  return found;
}

}  // namespace

void define_standby_gate_guc() {
  DefineCustomBoolVariable(
      "idgen.standbys_replay_marks",
      "Confirms that every standby of this server preloads idgen 0.3.0 or later.",
      "Read only before the first generator mark this server logs in WAL, while it has physical "
      "standbys (streaming, or holding a physical replication slot): off, that mark is refused, "
      "and so are the server-wide ids that need it, because a standby with an older idgen would "
      "stop at it. See docs/upgrading.md.",
      &standbys_replay_marks, false, PGC_SIGHUP, 0, nullptr, nullptr, nullptr);
}

void check_standbys_before_first_mark(bool database_used_before) {
  if (standbys_replay_marks || !database_used_before || RecoveryInProgress() ||
      durable_mark_ms() != 0) {
    return;
  }
  StringInfoData senders;
  StringInfoData slots;
  initStringInfo(&senders);
  initStringInfo(&slots);
  const int streaming = physical_wal_senders(&senders);
  const int held = physical_slots(&slots);
  if (streaming == 0 && held == 0) return;
  StringInfoData attached;
  initStringInfo(&attached);
  if (streaming > 0) appendStringInfo(&attached, "Streaming WAL from it: %s. ", senders.data);
  if (held > 0) appendStringInfo(&attached, "Physical replication slots: %s. ", slots.data);
  ereport(ERROR,
          (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
           errmsg("idgen cannot log its first generator mark while this server has physical "
                  "standbys"),
           errdetail("%sThis database was used with an idgen older than 0.3.0, and this server has "
                     "never logged a mark. A standby whose idgen is older than "
                     "0.3.0, or not preloaded, stops at idgen's first WAL record (\"resource "
                     "manager with ID 161 not registered\") and cannot start until idgen is "
                     "updated there.",
                     attached.data),
           errhint("Update idgen on every standby and restart it first (idgen's "
                   "docs/upgrading.md). Once SELECT rm_name FROM pg_get_wal_resource_managers() "
                   "WHERE rm_id = 161 answers idgen on each, set idgen.standbys_replay_marks = on "
                   "on this server and reload its configuration.")));
}

}  // namespace idgen::pg
