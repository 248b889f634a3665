// idgen.fixed_clock as other glue files need it: who pinned the clock.
#pragma once

namespace idgen::pg {

// Whether the clock is pinned by a superuser in this session: by SET, SET LOCAL or set_config run
// while the session's role was a superuser, or by the startup options of a superuser's session.
// No other pin is: one set by a role that is not a superuser, and none of the values that pin
// nothing at all (those from another source or set on another role's behalf are refused, a
// function's SET clause is ignored: fixed_clock_guc.cpp). Snowflake generation on a pinned clock,
// which could repeat the server's ids, needs this.
bool clock_pinned_by_superuser();

}  // namespace idgen::pg
