// See wait.hpp.
#include "pg/wait.hpp"

#include "core/clock.hpp"
#include "pg/postgres.hpp"

namespace idgen::pg {

void wait_for_clock(const char* generator) {
  if (clock::is_pinned()) {
    ereport(ERROR,
            (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
             errmsg("the %s generator has no id left in the pinned clock's millisecond", generator),
             errdetail("It waits for the clock to move on, and idgen.fixed_clock does not move."),
             errhint("Move idgen.fixed_clock on.")));
  }
  (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1, PG_WAIT_EXTENSION);
  ResetLatch(MyLatch);
  CHECK_FOR_INTERRUPTS();
}

}  // namespace idgen::pg
