// How idgen runs SQL of its own through SPI (the ledger trigger's tail query, ledger_create's
// INSERT, the group registry lookup): every function, operator, type and table in those
// statements is schema-qualified, and while they are parsed, planned and run the session's
// search_path is pinned to "pg_catalog, pg_temp", as a SECURITY DEFINER function with
// SET search_path does. A caller's search_path can then put no function or operator of its own
// into idgen's statements, including ones that run as the table owner. row_security is pinned on,
// so a query meant to be filtered by a role's policies is filtered, never refused.
#pragma once

namespace idgen::pg {

// Opens a GUC nest level with the settings above; returns the level for unpin_sql_settings.
int pin_sql_settings();

// Restores the settings that pin_sql_settings replaced. An ERROR in between restores them
// anyway, with the (sub)transaction it aborts.
void unpin_sql_settings(int level);

}  // namespace idgen::pg
