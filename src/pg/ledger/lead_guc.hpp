// How far ahead of the server's real clock a ledger event may be (idgen.ledger_max_lead).
//
// An event's timestamp must exceed its predecessor's, so an event far in the future would make
// every later append take "previous + 1" and, at the largest timestamp, refuse appends for good.
// Appenders choose timestamps (imported ids, idgen.fixed_clock), so the trigger bounds them by the
// real clock, which no session can move.
#pragma once

#include <cstdint>

#include "core/event_id.hpp"

namespace idgen::pg {

// Refuses (23514) an event of ledger at micros that leads the real clock by more than
// idgen.ledger_max_lead. previous is the ledger's latest event (nullptr for a genesis): its
// timestamp + 1, the least an event may have, is always accepted.
void require_event_lead(std::uint64_t micros, const event_id::EventId* previous,
                        std::uint32_t ledger);

}  // namespace idgen::pg
