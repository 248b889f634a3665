// Ledger event ids of the Evently ledger (docs/event-id.md): 16 bytes, big-endian
//   bytes 0-7   microseconds since 1970 (0 .. 2^63 - 1)
//   bytes 8-11  CRC-32C checksum of the event
//   bytes 12-15 ledger id; its two low bits are the id version (only 00 is defined)
// Text: 32 lower-case hex digits; input also takes upper case and the dashed uuid layout, as the
// reference accepts event ids as PostgreSQL uuids.
//
// Hashing is split where the JSON is: canonical JSON needs the database's jsonb (src/pg walks it
// into a crc32c::Stream), and everything around it -- the hex pieces, the chain, the genesis
// event with its quirks -- is here, pure and testable against the reference vectors.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/crc32c.hpp"
#include "core/decode_result.hpp"
#include "core/stack_safe.hpp"

namespace idgen::event_id {

struct EventId {
  std::array<std::uint8_t, 16> bytes{};
};
IDGEN_STACK_SAFE(EventId);

struct Parts {
  std::uint64_t micros;  // valid ids hold 0 .. kMaxMicros; extraction reports the raw field
  std::uint32_t checksum;
  std::uint32_t ledger;  // version bits included
};
IDGEN_STACK_SAFE(Parts);

constexpr std::uint64_t kMaxMicros = 0x7fffffffffffffffULL;  // the reference's BIGINT
constexpr std::uint32_t kVersionMask = 0x3;
constexpr std::size_t kTextChars = 32;
constexpr std::size_t kDashedChars = 36;

EventId pack(const Parts& parts) noexcept;
Parts unpack(const EventId& id) noexcept;
constexpr int version_of(std::uint32_t ledger) noexcept {
  return static_cast<int>(ledger & kVersionMask);
}

// Bytewise order: the order of the text forms and of PostgreSQL's uuid.
int compare(const EventId& a, const EventId& b) noexcept;

void encode_text(const EventId& id, char* out) noexcept;  // writes kTextChars characters
// 32 hex digits of either case, or the same digits as 8-4-4-4-12 with dashes. bad_character
// reports the first offending byte; a dash out of place is a bad character.
DecodeResult decode_text(const char* text, std::size_t len, EventId* out) noexcept;

// The genesis event's name, U+1F4D2 U+120FB, as UTF-8.
constexpr char kGenesisEvent[] = "\xf0\x9f\x93\x92\xf0\x92\x83\xbb";
constexpr std::size_t kGenesisEventBytes = sizeof kGenesisEvent - 1;
// Whether a UTF-8 event name is the genesis name.
bool is_genesis_name(const void* name, std::size_t len) noexcept;
// The genesis meta as jsonb prints it (Quirk 1).
constexpr char kGenesisMeta[] = "{\"notes\": \"Ledger established by Evently\"}";

// The end of a regular event's hash input, after name, entities, meta and data:
// hex16(micros) hex8(ledger) previous-id-text. Returns the finished checksum.
std::uint32_t finish_checksum(crc32c::Stream& stream, std::uint64_t micros, std::uint32_t ledger,
                              const EventId& previous) noexcept;

struct Genesis {
  std::uint32_t ledger;
  std::uint32_t checksum;
  EventId id;
};
IDGEN_STACK_SAFE(Genesis);

// The genesis of a ledger created with name and description (UTF-8) at micros:
// DATA_G is built from them exactly as jsonb prints {"name": ..., "description": ...}.
Genesis genesis(const char* name, std::size_t name_len, const char* description,
                std::size_t description_len, std::uint64_t micros) noexcept;

// The same from the meta and data texts as jsonb prints them (how a stored genesis row is
// verified: its jsonb cast to text reproduces the hashed pieces).
Genesis genesis_of_texts(const char* meta, std::size_t meta_len, const char* data,
                         std::size_t data_len, std::uint64_t micros) noexcept;

}  // namespace idgen::event_id
