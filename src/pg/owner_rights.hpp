// Running a piece of idgen's own work with another role's rights, as PostgreSQL's foreign-key
// triggers run their queries as the table's owner: the caller needs no privilege on what idgen
// reads or writes for it, and gains none. An ERROR in between restores the caller's identity with
// the (sub)transaction it aborts, so no clean-up is needed on that path.
#pragma once

#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "miscadmin.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// Runs f() as role `user` with the caller's security context plus `flags` (on top of
// SECURITY_LOCAL_USERID_CHANGE): SECURITY_RESTRICTED_OPERATION where only idgen's own statements
// run, SECURITY_NOFORCE_RLS where the owner must see past its own forced policies.
template <typename F>
void with_rights_of(Oid user, int flags, F f) {
  Oid caller = InvalidOid;
  int context = 0;
  GetUserIdAndSecContext(&caller, &context);
  SetUserIdAndSecContext(user, context | SECURITY_LOCAL_USERID_CHANGE | flags);
  f();
  SetUserIdAndSecContext(caller, context);
}

// The owner of a relation that exists (ERROR otherwise).
Oid relation_owner(Oid relid);

}  // namespace idgen::pg
