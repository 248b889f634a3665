// See wait.hpp.
#include "pg/generators/wait.hpp"

#include "core/clock.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/wait_event.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

namespace {

void refuse_if_pinned(const char* generator) {
  if (clock::is_pinned()) {
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("the %s generator has no id left in the pinned clock's millisecond", generator),
             errdetail("It waits for the clock to move on, and idgen.fixed_clock does not move."),
             errhint("Move idgen.fixed_clock on.")));
  }
}

void sleep_about_one_ms() {
  (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1, PG_WAIT_EXTENSION);
  ResetLatch(MyLatch);
  CHECK_FOR_INTERRUPTS();
}

}  // namespace

void wait_for_clock(const char* generator) {
  refuse_if_pinned(generator);
  sleep_about_one_ms();
}

void wait_for_clock_past(const char* generator, std::int64_t unix_ms,
                         std::int64_t (*now_unix_ms)()) {
  refuse_if_pinned(generator);
  for (;;) {
    const std::int64_t now = now_unix_ms();
    if (now > unix_ms) return;
    if (unix_ms - now >= 1) {
      sleep_about_one_ms();
    } else {
      CHECK_FOR_INTERRUPTS();
    }
  }
}

}  // namespace idgen::pg
