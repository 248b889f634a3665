// See ledger_walk.hpp.
#include "core/ledger_walk.hpp"

namespace idgen::event_id {

const char* fault_name(Fault f) noexcept {
  switch (f) {
    case Fault::none:
      return "";
    case Fault::genesis_malformed:
      return "genesis malformed";
    case Fault::ledger_id_mismatch:
      return "ledger id mismatch";
    case Fault::unsupported_version:
      return "unsupported version";
    case Fault::timestamp_not_increasing:
      return "timestamp not increasing";
    case Fault::checksum_mismatch:
      return "checksum mismatch";
  }
  return "";
}

void LedgerWalk::start_after(const EventId& trusted) noexcept {
  previous_ = trusted;
  ledger_ = unpack(trusted).ledger;
  started_after_ = true;
}

void LedgerWalk::genesis(const EventId& id, const GenesisFacts& facts) noexcept {
  const Parts parts = unpack(id);
  const Genesis& g = facts.recomputed;
  if (!facts.named_genesis || !facts.entities_empty || parts.micros > kMaxMicros) {
    fail(id, Fault::genesis_malformed);
    return;
  }
  expected_ = g.id;
  has_expected_ = true;
  if (g.ledger != parts.ledger || g.checksum != parts.checksum) {
    fail(id, Fault::genesis_malformed);
    return;
  }
  ledger_ = parts.ledger;
  pass(id);
}

bool LedgerWalk::structure(const EventId& id) noexcept {
  const Parts parts = unpack(id);
  if (parts.ledger != ledger_) {
    // A different ledger, or this ledger's 30 bits under another version.
    fail(id, (parts.ledger & ~kVersionMask) == (ledger_ & ~kVersionMask)
                 ? Fault::unsupported_version
                 : Fault::ledger_id_mismatch);
    return false;
  }
  if (version_of(parts.ledger) != 0) {
    fail(id, Fault::unsupported_version);
    return false;
  }
  if (parts.micros <= unpack(previous_).micros || parts.micros > kMaxMicros) {
    fail(id, Fault::timestamp_not_increasing);
    return false;
  }
  return true;
}

void LedgerWalk::checksum(const EventId& id, std::uint32_t computed) noexcept {
  const Parts parts = unpack(id);
  if (computed != parts.checksum) {
    expected_ = pack({parts.micros, computed, parts.ledger});
    has_expected_ = true;
    fail(id, Fault::checksum_mismatch);
    return;
  }
  pass(id);
}

void LedgerWalk::missing_content(const EventId& id) noexcept {
  fail(id, at_genesis() ? Fault::genesis_malformed : Fault::checksum_mismatch);
}

bool LedgerWalk::expected(EventId* out) const noexcept {
  if (!has_expected_ || fault_ == Fault::none) return false;
  *out = expected_;
  return true;
}

void LedgerWalk::fail(const EventId& id, Fault f) noexcept {
  ++events_;
  fault_ = f;
  first_invalid_ = id;
  first_invalid_position_ = events_;
}

void LedgerWalk::pass(const EventId& id) noexcept {
  ++events_;
  has_expected_ = false;
  previous_ = id;
}

}  // namespace idgen::event_id
