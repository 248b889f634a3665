// PostgreSQL numeric <-> unsigned 128-bit integers, for DistributedId values (numeric(28,0)) and
// the 38/39-digit numeric form of 128-bit ids.
//
// Values are built and read in numeric's stored form directly (a varlena of base-10000 digits,
// the layout described in PostgreSQL's numeric.c, which pg_upgrade keeps stable), because going
// through text would cost more than generating the id itself.
#pragma once

#include "core/stack_safe.hpp"
#include "core/uint128.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/numeric.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// What an argument stands for, for its range check and its error messages.
struct NumericDomain {
  const char* name;      // "DistributedId"
  u128 max;              // largest accepted value
  const char* max_text;  // the same in decimal, for messages
};
IDGEN_STACK_SAFE(NumericDomain);

extern const NumericDomain kDistributedIdDomain;  // integers 0 .. 10^28 - 1
extern const NumericDomain kUint128Domain;        // integers 0 .. 2^128 - 1

enum class NumericStatus { ok, nan, infinite, negative, not_integer, too_large };

// Non-raising conversion of a detoasted numeric (the display scale does not matter: 5.000 is 5).
NumericStatus numeric_to_u128(Numeric num, u128 max, u128* out);

// Argument n (not NULL) as an integer of the domain; otherwise raises 22023 (NaN, non-integer) or
// 22003 (negative, infinite, too large) stating the rule.
u128 numeric_arg(FunctionCallInfo fcinfo, int n, const NumericDomain& domain);

// A palloc'd numeric with scale 0 holding v.
Datum numeric_datum(u128 v);

}  // namespace idgen::pg
