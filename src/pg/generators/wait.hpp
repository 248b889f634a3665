// Waiting while a generator waits for the clock (docs/distributed-id.md: it waits about 1 ms).
#pragma once

#include <cstdint>

namespace idgen::pg {

// Sleeps about one millisecond on the process latch, then honours a pending cancel or
// termination (statement_timeout, pg_cancel_backend): the wait can always be interrupted.
// On a pinned clock (idgen.fixed_clock) the next millisecond never comes, so instead of waiting
// forever it raises 55000 naming `generator` (e.g. "Snowflake").
void wait_for_clock(const char* generator);

// Waits until the generator's clock (now_unix_ms: the server clock for a server-wide generator)
// reads a millisecond after unix_ms: for a generator whose next id needs the next ms
// (Snowflake's 4096 per ms), where a 1 ms sleep would lose most of that ms. While the clock is
// more than 1 ms short it sleeps as wait_for_clock does; within the last millisecond it polls the
// clock (interruptibly) instead of sleeping past the moment. Pinned clock: as above.
void wait_for_clock_past(const char* generator, std::int64_t unix_ms,
                         std::int64_t (*now_unix_ms)());

}  // namespace idgen::pg
