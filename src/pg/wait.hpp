// Waiting while a generator waits for the clock (docs/distributed-id.md: it waits about 1 ms).
#pragma once

namespace idgen::pg {

// Sleeps about one millisecond on the process latch, then honours a pending cancel or
// termination (statement_timeout, pg_cancel_backend): the wait can always be interrupted.
// On a pinned clock (idgen.fixed_clock) the next millisecond never comes, so instead of waiting
// forever it raises 55000 naming `generator` (e.g. "Snowflake").
void wait_for_clock(const char* generator);

}  // namespace idgen::pg
