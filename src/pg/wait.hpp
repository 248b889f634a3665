// Sleeping while a generator waits for the clock (docs/distributed-id.md: it waits about 1 ms).
#pragma once

namespace idgen::pg {

// Sleeps about one millisecond on the process latch, then honours a pending cancel or
// termination (statement_timeout, pg_cancel_backend): the wait can always be interrupted.
void wait_about_one_ms();

}  // namespace idgen::pg
