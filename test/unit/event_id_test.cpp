// Unit tests of ledger event ids (src/core/event_id.*, ledger_walk.*, json_string.hpp) against
// every row of test/vectors/event_ids.tsv that needs no database: the layout and text form, the
// hash-input tails and chaining of regular events, the genesis with its quirks, the legacy rows
// (CRC and layout only), and the ledger walk over G1 and E01-E06.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/crc32c.hpp"
#include "core/event_id.hpp"
#include "core/json_string.hpp"
#include "core/ledger_walk.hpp"
#include "vectors.hpp"

namespace idgen {
namespace {

using event_id::EventId;

enum Column {
  kId,
  kSource,
  kKind,
  kName,
  kDescription,
  kClock,
  kMicros,
  kLedger,
  kEvent,
  kEntities,
  kMeta,
  kData,
  kPrevious,
  kLedgerInput,
  kHashInput,
  kChecksum,
  kEventId
};

std::string text_of(const EventId& id) {
  char text[event_id::kTextChars];
  event_id::encode_text(id, text);
  return std::string(text, sizeof text);
}

EventId id_of(const std::string& text) {
  EventId id;
  EXPECT_EQ(event_id::decode_text(text.data(), text.size(), &id).status, DecodeStatus::ok) << text;
  return id;
}

std::uint32_t hex32(const std::string& s) {
  return static_cast<std::uint32_t>(std::stoul(s, nullptr, 16));
}

struct StringSink {
  std::string text;
  void append(const char* p, std::size_t n) { text.append(p, n); }
  void push(char c) { text.push_back(c); }
};

std::string json_quoted(const std::string& s) {
  StringSink sink;
  json_string::write(sink, s.data(), s.size());
  return sink.text;
}

const std::vector<test::Row>& rows() {
  static const auto all = test::read_copy_vectors("event_ids.tsv");
  return all;
}

TEST(EventId, VectorFileHasEveryRow) {
  ASSERT_EQ(rows().size(), 9u);  // L1-L2, G1, E01-E06
  for (const auto& row : rows()) EXPECT_EQ(row.size(), 18u) << row[kId];
}

TEST(EventId, LayoutAndTextOfEveryVector) {
  for (const auto& row : rows()) {
    const EventId id = id_of(row[kEventId]);
    const event_id::Parts parts = event_id::unpack(id);
    EXPECT_EQ(parts.micros, std::stoull(row[kMicros])) << row[kId];
    EXPECT_EQ(parts.checksum, hex32(row[kChecksum])) << row[kId];
    EXPECT_EQ(parts.ledger, hex32(row[kLedger])) << row[kId];
    EXPECT_EQ(text_of(event_id::pack(parts)), row[kEventId]) << row[kId];
  }
}

TEST(EventId, ChecksumIsTheCrcOfTheHashInput) {
  for (const auto& row : rows()) {
    EXPECT_EQ(crc32c::of(row[kHashInput].data(), row[kHashInput].size()), hex32(row[kChecksum]))
        << row[kId];
  }
}

TEST(EventId, RegularEventTailChainsTheTimestampLedgerAndPreviousId) {
  int checked = 0;
  for (const auto& row : rows()) {
    if (row[kKind] != "event") continue;
    // The hash input ends with hex16(ts) hex8(ledger) previous (56 characters).
    const std::string& input = row[kHashInput];
    ASSERT_GT(input.size(), 56u);
    crc32c::Stream stream;
    stream.append(input.data(), input.size() - 56);
    const event_id::Parts parts = event_id::unpack(id_of(row[kEventId]));
    EXPECT_EQ(event_id::finish_checksum(stream, parts.micros, parts.ledger, id_of(row[kPrevious])),
              parts.checksum)
        << row[kId];
    // And the head is exactly name entities meta data, as the reference implementation writes them.
    EXPECT_EQ(input.compare(0, row[kEvent].size(), row[kEvent]), 0) << row[kId];
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

TEST(EventId, GenesisFromNameDescriptionAndTime) {
  const auto& g1 = rows()[2];
  ASSERT_EQ(g1[kId], "G1");
  const std::uint64_t micros = std::stoull(g1[kMicros]);
  const event_id::Genesis g = event_id::genesis(
      g1[kName].data(), g1[kName].size(), g1[kDescription].data(), g1[kDescription].size(), micros);
  EXPECT_EQ(g.ledger, hex32(g1[kLedger]));
  EXPECT_EQ(g.checksum, hex32(g1[kChecksum]));
  EXPECT_EQ(text_of(g.id), g1[kEventId]);
  // Quirk 2: the ledger id input, and Quirk 3: the decimal "previous" piece.
  EXPECT_EQ(crc32c::of(g1[kLedgerInput].data(), g1[kLedgerInput].size()) & ~3u, g.ledger);
  EXPECT_EQ(g1[kPrevious], "4112752901");
  // The same from the jsonb texts of the stored meta and data.
  const event_id::Genesis t = event_id::genesis_of_texts(
      g1[kMeta].data(), g1[kMeta].size(), g1[kData].data(), g1[kData].size(), micros);
  EXPECT_EQ(text_of(t.id), g1[kEventId]);
  EXPECT_EQ(g1[kMeta], event_id::kGenesisMeta);
  EXPECT_EQ(g1[kEvent], event_id::kGenesisEvent);
}

TEST(EventId, GenesisEscapesNameAndDescriptionAsJsonbPrintsThem) {
  const std::string name = "a \"q\" \\ \x01\x1f\t/\xc3\xa9";
  const std::string description = "line\nbreak";
  const std::string data =
      "{\"name\": " + json_quoted(name) + ", \"description\": " + json_quoted(description) + "}";
  EXPECT_EQ(data,
            "{\"name\": \"a \\\"q\\\" \\\\ \\u0001\\u001f\\t/\xc3\xa9\", "
            "\"description\": \"line\\nbreak\"}");
  const auto built =
      event_id::genesis(name.data(), name.size(), description.data(), description.size(), 42);
  const auto from_text = event_id::genesis_of_texts(
      event_id::kGenesisMeta, sizeof event_id::kGenesisMeta - 1, data.data(), data.size(), 42);
  EXPECT_EQ(text_of(built.id), text_of(from_text.id));
  EXPECT_EQ(built.ledger & 3u, 0u);
}

TEST(EventId, JsonStringEscapesLikePostgres) {
  EXPECT_EQ(json_quoted(""), "\"\"");
  EXPECT_EQ(json_quoted("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
  EXPECT_EQ(json_quoted(std::string("\x01\x0b\x1f\x7f", 4)), "\"\\u0001\\u000b\\u001f\x7f\"");
  EXPECT_EQ(json_quoted("\xe2\x80\xa8 /"), "\"\xe2\x80\xa8 /\"");  // U+2028 and / stay raw
}

TEST(EventId, TextInputForms) {
  const std::string plain = "00060a24181e4000020623a912def140";
  EXPECT_EQ(text_of(id_of("00060A24181E4000020623A912DEF140")), plain);
  EXPECT_EQ(text_of(id_of("00060a24-181e-4000-0206-23a912def140")), plain);
  EventId id;
  auto r = event_id::decode_text("00060a24181e4000020623a912def14", 31, &id);
  EXPECT_EQ(r.status, DecodeStatus::bad_length);
  r = event_id::decode_text("00060a24181e4000020623a912def1400", 33, &id);
  EXPECT_EQ(r.status, DecodeStatus::bad_length);
  r = event_id::decode_text("00060a24181e4000020623a912def14g", 32, &id);
  EXPECT_EQ(r.status, DecodeStatus::bad_character);
  EXPECT_EQ(r.position, 31u);
  r = event_id::decode_text("00060a24-181e-4000-0206-23a912def14x", 36, &id);
  EXPECT_EQ(r.status, DecodeStatus::bad_character);
  EXPECT_EQ(r.position, 35u);
  r = event_id::decode_text("00060a24-181e-4000-02x6-23a912def140", 36, &id);
  EXPECT_EQ(r.position, 21u);
  r = event_id::decode_text("00060a24181e-4000-0206-23a912def1400", 36, &id);  // dash misplaced
  EXPECT_EQ(r.status, DecodeStatus::bad_character);
  EXPECT_EQ(r.position, 8u);
  r = event_id::decode_text("{00060a24181e4000020623a912def140}", 34, &id);
  EXPECT_EQ(r.status, DecodeStatus::bad_character);
  r = event_id::decode_text("", 0, &id);
  EXPECT_EQ(r.status, DecodeStatus::bad_length);
}

TEST(EventId, OrderIsBytewise) {
  EXPECT_LT(event_id::compare(id_of("00060a24181e4000ffffffff12def140"),
                              id_of("00060a24181e40010000000000000000")),
            0);
  EXPECT_GT(event_id::compare(id_of("80000000000000000000000000000000"),
                              id_of("7fffffffffffffffffffffffffffffff")),
            0);
}

// Walks G1, E01-E06 with checksums taken from the vectors' hash inputs.
event_id::LedgerWalk walk_shared_chain(int tamper_at) {
  event_id::LedgerWalk walk;
  for (const auto& row : rows()) {
    if (row[kKind] == "genesis") {
      const std::uint64_t micros = std::stoull(row[kMicros]);
      walk.genesis(id_of(row[kEventId]),
                   {row[kEvent] == event_id::kGenesisEvent, row[kEntities] == "{}",
                    event_id::genesis_of_texts(row[kMeta].data(), row[kMeta].size(),
                                               row[kData].data(), row[kData].size(), micros)});
    } else if (row[kKind] == "event") {
      const EventId id = id_of(row[kEventId]);
      if (!walk.checking()) {
        walk.skip();
        continue;
      }
      if (!walk.structure(id)) continue;
      EXPECT_EQ(text_of(walk.previous()), row[kPrevious]) << row[kId];
      std::string input = row[kHashInput];
      if (static_cast<int>(walk.events()) == tamper_at) input[0] ^= 1;
      walk.checksum(id, crc32c::of(input.data(), input.size()));
    }
  }
  return walk;
}

TEST(EventId, LedgerWalkAcceptsTheSharedChain) {
  const auto walk = walk_shared_chain(-1);
  EXPECT_FALSE(walk.failed());
  EXPECT_EQ(walk.events(), 7u);
}

TEST(EventId, LedgerWalkStopsAtTheTamperedEvent) {
  const auto walk = walk_shared_chain(3);  // E03, the fourth event
  ASSERT_TRUE(walk.failed());
  EXPECT_EQ(walk.fault(), event_id::Fault::checksum_mismatch);
  EXPECT_EQ(text_of(walk.first_invalid()), "00060a24181e4003d138794512def140");
  EXPECT_EQ(walk.first_invalid_position(), 4u);
  EXPECT_EQ(walk.events(), 7u);
  EventId expected;
  ASSERT_TRUE(walk.expected(&expected));
  EXPECT_NE(text_of(expected), "00060a24181e4003d138794512def140");
  EXPECT_EQ(text_of(expected).substr(0, 16), "00060a24181e4003");
}

TEST(EventId, LedgerWalkStructuralFaultsInOrder) {
  const EventId genesis = id_of("00060a24181e4000020623a912def140");
  const auto start = [&] {
    event_id::LedgerWalk w;
    w.start_after(genesis);
    return w;
  };
  auto w = start();
  EXPECT_FALSE(w.structure(id_of("00060a24181e4001a1af30c612def144")));
  EXPECT_EQ(w.fault(), event_id::Fault::ledger_id_mismatch);
  w = start();
  EXPECT_FALSE(w.structure(id_of("00060a24181e4001a1af30c612def141")));
  EXPECT_EQ(w.fault(), event_id::Fault::unsupported_version);
  w = start();
  EXPECT_FALSE(w.structure(id_of("00060a24181e4000a1af30c612def140")));
  EXPECT_EQ(w.fault(), event_id::Fault::timestamp_not_increasing);
  w = start();
  EXPECT_TRUE(w.structure(id_of("00060a24181e4001a1af30c612def140")));
  // A genesis that is not named as one is malformed whatever its bytes.
  event_id::LedgerWalk g;
  g.genesis(genesis,
            {false, true,
             event_id::genesis("unit-tests", 10, "unit-testing ledger", 19, 1700000000000000)});
  EXPECT_EQ(g.fault(), event_id::Fault::genesis_malformed);
  event_id::LedgerWalk ok;
  ok.genesis(genesis,
             {true, true,
              event_id::genesis("unit-tests", 10, "unit-testing ledger", 19, 1700000000000000)});
  EXPECT_FALSE(ok.failed());
}

TEST(EventId, StreamEqualsOneCrcWhateverTheSplit) {
  std::string text(3000, 'x');
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>(i * 7 + 3);
  const std::uint32_t whole = crc32c::of(text.data(), text.size());
  for (std::size_t piece : {1u, 3u, 255u, 256u, 257u, 1000u}) {
    crc32c::Stream s;
    for (std::size_t at = 0; at < text.size(); at += piece) {
      const std::size_t n = std::min(piece, text.size() - at);
      if (n == 1)
        s.push(text[at]);
      else
        s.append(text.data() + at, n);
    }
    EXPECT_EQ(s.value(), whole) << piece;
  }
}

}  // namespace
}  // namespace idgen
