// idgen.fixed_clock as other glue files need it: who pinned the clock.
#pragma once

namespace idgen::pg {

// Whether the clock is pinned by a superuser's SET in this session (SET, SET LOCAL, set_config or
// a function's SET clause, run while the session's role, outside any SECURITY DEFINER function,
// was a superuser). A pin from any other source (ALTER DATABASE/ROLE SET, the configuration
// files, a role that is not a superuser) is not, nor is the real clock. Snowflake generation on a
// pinned clock, which could repeat the server's ids, needs this.
bool clock_pinned_by_superuser();

}  // namespace idgen::pg
