// The canonical JSON of ledger event ids (docs/event-id.md) from a stored jsonb: compact, object
// keys in code-point order (the bytewise order of their UTF-8), arrays in their order, strings
// escaped as PostgreSQL prints them, numbers exactly as numeric_out prints them. The text is
// always UTF-8, whatever the database encoding: strings are converted before keys are sorted.
#pragma once

#include "core/crc32c.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/jsonb.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// Feeds the canonical text into a running CRC, without building it.
void canonical_json_crc(crc32c::Stream& stream, Jsonb* value);

// Appends the canonical text (UTF-8) to out.
void canonical_json_text(StringInfo out, Jsonb* value);

}  // namespace idgen::pg
