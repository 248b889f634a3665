// See wait.hpp.
#include "pg/wait.hpp"

#include "pg/postgres.hpp"

namespace idgen::pg {

void wait_about_one_ms() {
  (void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1, PG_WAIT_EXTENSION);
  ResetLatch(MyLatch);
  CHECK_FOR_INTERRUPTS();
}

}  // namespace idgen::pg
