// Whole-ledger verification (docs/event-id.md, "Verifying a ledger") as a state machine over events
// in id order. The caller computes what needs the database (the genesis pieces, a regular event's
// checksum over canonical JSON) and this decides, in the reference's order of checks, whether each
// event holds and where the walk stops. Trivially copyable and destructible (asserted below), so it
// can live in an aggregate's state and on a stack that PostgreSQL longjmps across.
#pragma once

#include <cstdint>

#include "core/event_id.hpp"
#include "core/stack_safe.hpp"

namespace idgen::event_id {

enum class Fault : std::uint8_t {
  none,
  genesis_malformed,
  ledger_id_mismatch,
  unsupported_version,
  timestamp_not_increasing,
  checksum_mismatch,
};

const char* fault_name(Fault f) noexcept;  // "genesis malformed", ...; "" for none

class LedgerWalk {
 public:
  // What the first event must be.
  struct GenesisFacts {
    bool named_genesis;   // its event name is kGenesisEvent
    bool entities_empty;  // its entities are the empty object
    Genesis recomputed;   // genesis_of_texts over its meta and data at its timestamp
  };

  bool at_genesis() const noexcept { return events_ == 0 && !started_after_; }
  bool failed() const noexcept { return fault_ != Fault::none; }
  // Whether the next event still needs checking (no failure yet).
  bool checking() const noexcept { return fault_ == Fault::none; }

  // Starts after a trusted event instead of at genesis (partial validation): that id is the
  // first previous id and fixes the ledger.
  void start_after(const EventId& trusted) noexcept;

  void genesis(const EventId& id, const GenesisFacts& facts) noexcept;

  // The structural checks of a later event (same ledger, version 00, increasing timestamp).
  // When it returns true, the caller computes the checksum over the previous id and calls
  // checksum(); when false, the event has been recorded as the failure.
  bool structure(const EventId& id) noexcept;
  void checksum(const EventId& id, std::uint32_t computed) noexcept;

  // An event whose name or JSON is missing (SQL NULL): nothing can match it, so it fails as a
  // malformed genesis at the start and as a checksum mismatch later.
  void missing_content(const EventId& id) noexcept;

  // Counts an event that arrives after the failure (it is not checked).
  void skip() noexcept { ++events_; }

  const EventId& previous() const noexcept { return previous_; }
  std::uint64_t events() const noexcept { return events_; }
  Fault fault() const noexcept { return fault_; }
  const EventId& first_invalid() const noexcept { return first_invalid_; }
  std::uint64_t first_invalid_position() const noexcept { return first_invalid_position_; }
  // The id the failing event should have had, when one can be computed (genesis and checksum
  // faults); false otherwise.
  bool expected(EventId* out) const noexcept;

 private:
  void fail(const EventId& id, Fault f) noexcept;
  void pass(const EventId& id) noexcept;

  EventId previous_{};
  EventId first_invalid_{};
  EventId expected_{};
  bool has_expected_ = false;
  bool started_after_ = false;
  std::uint32_t ledger_ = 0;
  std::uint64_t events_ = 0;
  std::uint64_t first_invalid_position_ = 0;
  Fault fault_ = Fault::none;
};
IDGEN_STACK_SAFE(LedgerWalk::GenesisFacts);
IDGEN_STACK_SAFE(LedgerWalk);

}  // namespace idgen::event_id
