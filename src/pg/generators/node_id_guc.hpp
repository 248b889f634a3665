// idgen.node_id: the node number (0 .. 1023) that Snowflake ids carry. Superuser-only, unset (-1)
// by default: a node number that two servers share would make their ids collide, so generation
// refuses to run until one is chosen.
#pragma once

namespace idgen::pg {

// The configured node number, or -1 when idgen.node_id is not set.
int configured_node_id();

}  // namespace idgen::pg
