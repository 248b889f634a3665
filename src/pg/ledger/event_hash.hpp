// The checksums of ledger events from SQL values (docs/event-id.md): the one place that
// joins the event name, the canonical JSON of the stored jsonb and the chain pieces of core.
#pragma once

#include "core/event_id.hpp"
#include "core/ledger_walk.hpp"
#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "utils/jsonb.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// The checksum of a regular event. Text is hashed as UTF-8.
std::uint32_t regular_checksum(text* event, Jsonb* entities, Jsonb* meta, Jsonb* data,
                               std::uint64_t micros, std::uint32_t ledger,
                               const event_id::EventId& previous);

// What the genesis checks of a ledger walk need from a stored genesis row at micros: its meta
// and data hashed as jsonb prints them (Quirk 1).
event_id::LedgerWalk::GenesisFacts genesis_facts(text* event, Jsonb* entities, Jsonb* meta,
                                                 Jsonb* data, std::uint64_t micros);

// Checks one event of a ledger walk that is still checking: the genesis rules at the start, else
// structure and checksum.
void walk_event(event_id::LedgerWalk& walk, const event_id::EventId& id, text* event,
                Jsonb* entities, Jsonb* meta, Jsonb* data);

}  // namespace idgen::pg
