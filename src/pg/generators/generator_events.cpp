// See generator_events.hpp.
#include "pg/generators/generator_events.hpp"

#include <cstdint>

#include "core/arith.hpp"
#include "core/clock.hpp"
#include "core/stack_safe.hpp"
#include "pg/convert.hpp"
#include "pg/generators/generator_mark.hpp"
#include "pg/generators/log_lead_threshold_guc.hpp"
#include "pg/generators/node_id_guc.hpp"
#include "pg/generators/server_clock.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "commands/dbcommands.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/shmem.h"
#include "utils/lsyscache.h"  // get_database_name from PostgreSQL 19 on
#include "utils/timestamp.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

SharedGeneratorEvents* shared_generator_events = nullptr;

namespace {

// How often (in the server clock's ms) an id looks for events: a step back or a lead is logged
// within this of the first id that shows it.
constexpr std::int64_t kCheckEveryMs = 100;

// A duration in µs as seconds with ms, signed ("2.650", "-0.004").
struct SecondsText {
  char text[32];
};
IDGEN_STACK_SAFE(SecondsText);

SecondsText seconds_text(std::int64_t us) {
  SecondsText out{};
  const std::int64_t ms = floor_div(us < 0 ? -us : us, 1000);
  snprintf(out.text, sizeof out.text, "%s%lld.%03lld", us < 0 ? "-" : "",
           static_cast<long long>(ms / 1000), static_cast<long long>(ms % 1000));
  return out;
}

// A Unix ms as timestamptz text, in the server's time zone.
const char* instant_text(std::int64_t unix_ms) {
  return timestamptz_to_str(DatumGetTimestampTz(timestamptz_from_unix_ms(unix_ms)));
}

// How far the server clock leads the wall clock now (0 when it does not).
std::int64_t clock_lead_us() {
  const ServerClockStatus status = server_clock_status();
  const std::int64_t lead = status.clock_us - status.wall_us;
  return lead > 0 ? lead : 0;
}

void log_step_back(const ServerClockSteps& steps, std::int64_t new_steps) {
  const SecondsText size = seconds_text(steps.last_us);
  const SecondsText twice = seconds_text(2 * steps.last_us);
  ereport(LOG_SERVER_ONLY,
          (errmsg("idgen saw the wall clock step back by %s s", size.text),
           errdetail("idgen's server clock runs on from its last reading at half the pace of "
                     "real time until the wall clock catches up: new ids stay in order and "
                     "lead the wall clock by up to %s s, for up to %s s. Steps back seen "
                     "since the server started: %lld (%lld since the last line).",
                     size.text, twice.text, static_cast<long long>(steps.count),
                     static_cast<long long>(new_steps)),
           errhint("Check the server's time synchronisation (an NTP step, a virtual machine "
                   "restored from a snapshot, a manual change of the clock).")));
}

void log_lead(std::int64_t lead_us, std::int64_t threshold_ms) {
  const SecondsText lead = seconds_text(lead_us);
  const SecondsText clock = seconds_text(clock_lead_us());
  ereport(LOG_SERVER_ONLY,
          (errmsg("idgen's server-wide ids lead the wall clock by %s s, more than "
                  "idgen.log_lead_threshold (%lld ms)",
                  lead.text, static_cast<long long>(threshold_ms)),
           errdetail("idgen's server clock leads the wall clock by %s s. Ids keep their order; "
                     "their times run ahead until the wall clock catches up (twice the lead at "
                     "most).",
                     clock.text),
           errhint("A step back of the wall clock, a start after a crash or a generator mark "
                   "adopted from another server's database causes this: look for idgen's line "
                   "about it in this log, and check the clocks. idgen.generator_status() shows "
                   "the lead as it shrinks.")));
}

}  // namespace

std::size_t generator_events_shmem_size() { return MAXALIGN(sizeof(SharedGeneratorEvents)); }

void attach_generator_events() {
  bool found = false;
  auto* mem = static_cast<SharedGeneratorEvents*>(
      ShmemInitStruct("idgen generator events", sizeof(SharedGeneratorEvents), &found));
  if (!found) {
    for (GeneratorCounters& counters : mem->generators) {
      pg_atomic_init_u64(&counters.ids, 0);
      pg_atomic_init_u64(&counters.waits, 0);
      pg_atomic_init_u64(&counters.mark_writes, 0);
    }
    pg_atomic_init_u64(&mem->check_after_ms, 0);
    pg_atomic_init_u64(&mem->steps_back_logged, 0);
    pg_atomic_init_u32(&mem->lead_logged, 0);
  }
  shared_generator_events = mem;
}

void log_generator_events(std::int64_t clock_ms, std::int64_t id_ms) {
  SharedGeneratorEvents* events = shared_generator_events;
  std::uint64_t due = pg_atomic_read_u64(&events->check_after_ms);
  if (static_cast<std::int64_t>(due) >= clock_ms) return;
  // One session a turn: the others go on without looking.
  if (!pg_atomic_compare_exchange_u64(&events->check_after_ms, &due,
                                      static_cast<std::uint64_t>(clock_ms + kCheckEveryMs))) {
    return;
  }
  const ServerClockSteps steps = server_clock_steps();
  std::uint64_t logged = pg_atomic_read_u64(&events->steps_back_logged);
  if (static_cast<std::uint64_t>(steps.count) > logged) {
    const auto new_steps =
        static_cast<std::int64_t>(static_cast<std::uint64_t>(steps.count) - logged);
    if (pg_atomic_compare_exchange_u64(&events->steps_back_logged, &logged,
                                       static_cast<std::uint64_t>(steps.count))) {
      log_step_back(steps, new_steps);
    }
  }
  const std::int64_t threshold = log_lead_threshold_ms();
  if (threshold < 0) return;
  const std::int64_t lead_us = id_ms * 1000 - clock::real_now_unix_us();
  std::uint32_t state = pg_atomic_read_u32(&events->lead_logged);
  if (lead_us > threshold * 1000) {
    if (state == 0 && pg_atomic_compare_exchange_u32(&events->lead_logged, &state, 1)) {
      log_lead(lead_us, threshold);
    }
  } else if (state == 1 && lead_us <= threshold * 500) {
    // Below half the threshold: the next time it is exceeded is a new event.
    (void)pg_atomic_compare_exchange_u32(&events->lead_logged, &state, 0);
  }
}

GeneratorCounts generator_counts(GeneratorKind kind) {
  GeneratorCounters& counters = counters_of(kind);
  return {static_cast<std::int64_t>(pg_atomic_read_u64(&counters.ids)),
          static_cast<std::int64_t>(pg_atomic_read_u64(&counters.waits)),
          server_clock_steps().count,
          static_cast<std::int64_t>(pg_atomic_read_u64(&counters.mark_writes))};
}

void log_generators_start(std::int64_t mark_ms) {
  const int node = configured_node_id();
  char node_text[16];
  snprintf(node_text, sizeof node_text, "%d", node);
  const SecondsText lead = seconds_text(clock_lead_us());
  if (mark_ms > 0) {
    ereport(LOG_SERVER_ONLY,
            (errmsg("idgen's generators start in server scope, node number %s, generator "
                    "mark %s",
                    node < 0 ? "unset" : node_text, instant_text(mark_ms)),
             errdetail("Their clock starts after the mark, %s s ahead of the wall clock: new "
                       "ids lead the wall clock by up to that much until it catches up.",
                       lead.text)));
  } else {
    ereport(LOG_SERVER_ONLY,
            (errmsg("idgen's generators start in server scope, node number %s, no generator "
                    "mark",
                    node < 0 ? "unset" : node_text),
             errdetail("The file \"%s\" holds no mark: the server is new, or the file was "
                       "lost. Before the first server-wide id idgen takes the newest mark "
                       "that crash recovery replays or, failing that, of every database.",
                       kMarkFileName)));
  }
}

void log_generators_after_recovery(std::int64_t mark_ms) {
  const SecondsText lead = seconds_text(clock_lead_us());
  ereport(LOG_SERVER_ONLY,
          (errmsg("idgen's generators start after recovery, generator mark %s",
                  mark_ms > 0 ? instant_text(mark_ms) : "none"),
           errdetail("Their clock starts after the newest mark, %s s ahead of the wall "
                     "clock: new ids lead the wall clock by up to that much until it catches "
                     "up.",
                     lead.text)));
}

void log_adopted_mark(std::int64_t mark_ms, std::uint64_t origin) {
  const SecondsText lead = seconds_text(clock_lead_us());
  const char* database = get_database_name(MyDatabaseId);
  if (database == nullptr) database = "?";
  if (origin == 0) {
    ereport(LOG_SERVER_ONLY,
            (errmsg("idgen moved its generators past the generator mark of database \"%s\", which "
                    "was above the server's",
                    database),
             errdetail("The server's mark file was lost or replaced by an older copy. The mark is "
                       "%s; new ids lead the wall clock by %s s until it catches up.",
                       instant_text(mark_ms), lead.text)));
    return;
  }
  const int node = configured_node_id();
  if (node < 0) {
    ereport(LOG_SERVER_ONLY,
            (errmsg("idgen adopted the generator mark of database \"%s\", written by another "
                    "server (system identifier %llu)",
                    database, static_cast<unsigned long long>(origin)),
             errdetail("The database was restored or upgraded from that server. idgen moved the "
                       "generators of every database of this server past its mark, %s: new ids "
                       "sort after the copied ones and lead the wall clock by %s s until it "
                       "catches up.",
                       instant_text(mark_ms), lead.text)));
    return;
  }
  ereport(LOG_SERVER_ONLY,
          (errmsg("this database's ids were made by another server (system identifier %llu)",
                  static_cast<unsigned long long>(origin)),
           errdetail("Database \"%s\" was restored or upgraded from that server. idgen moved the "
                     "generators of every database of this server past its generator mark, %s: "
                     "new ids sort after the copied ones and lead the wall clock by %s s until it "
                     "catches up. Snowflake ids stay unique only while no two running servers "
                     "have the same node number; this server's is %d.",
                     database, instant_text(mark_ms), lead.text, node),
           errhint("Find the server whose pg_control_system() shows system identifier %llu. If it "
                   "still runs with idgen.node_id = %d, give one of the two another node number "
                   "before either makes more Snowflake ids; if it was retired or its copy is this "
                   "one, nothing needs doing.",
                   static_cast<unsigned long long>(origin), node)));
}

}  // namespace idgen::pg
