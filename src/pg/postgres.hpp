// The PostgreSQL server headers, as C++ sees them. Every file in src/pg includes this instead of
// including server headers directly, so the extern "C" wrapping lives in one place.
#pragma once

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "commands/sequence.h"
#include "datatype/timestamp.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"
}
