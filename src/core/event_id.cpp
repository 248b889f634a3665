// See event_id.hpp.
#include "core/event_id.hpp"

#include <cstring>

#include "core/byte_order.hpp"
#include "core/hex.hpp"
#include "core/json_string.hpp"
#include "core/uint128.hpp"

namespace idgen::event_id {
namespace {

void append_hex(crc32c::Stream& stream, std::uint64_t v, std::size_t chars) noexcept {
  char text[16];
  hex::encode_lower(v, chars, text);
  stream.append(text, chars);
}

// Everything after DATA_G: both genesis forms share it. `prefix` holds
// name {} META_G DATA_G already; micros is hashed here.
Genesis finish_genesis(crc32c::Stream& prefix, std::uint64_t micros) noexcept {
  append_hex(prefix, micros, 16);
  Genesis g{};
  // Quirk 2: the ledger id covers the timestamp.
  g.ledger = prefix.value() & ~kVersionMask;
  // Quirk 3: the "previous" piece is the decimal text of CRC32C(hex16(ts) 00000000 hex8(ledger)).
  crc32c::Stream zero_id;
  append_hex(zero_id, micros, 16);
  zero_id.append("00000000", 8);
  append_hex(zero_id, g.ledger, 8);
  char decimal[40];
  const std::size_t decimal_len = u128_to_decimal(zero_id.value(), decimal);
  append_hex(prefix, g.ledger, 8);
  prefix.append(decimal, decimal_len);
  g.checksum = prefix.value();
  g.id = pack({micros, g.checksum, g.ledger});
  return g;
}

crc32c::Stream genesis_head() noexcept {
  crc32c::Stream s;
  s.append(kGenesisEvent, kGenesisEventBytes);
  s.append("{}", 2);
  return s;
}

}  // namespace

EventId pack(const Parts& parts) noexcept {
  EventId id;
  store_be64(id.bytes.data(), parts.micros);
  store_be64(id.bytes.data() + 8, static_cast<std::uint64_t>(parts.checksum) << 32 | parts.ledger);
  return id;
}

Parts unpack(const EventId& id) noexcept {
  const std::uint64_t low = load_be64(id.bytes.data() + 8);
  return {load_be64(id.bytes.data()), static_cast<std::uint32_t>(low >> 32),
          static_cast<std::uint32_t>(low)};
}

bool is_genesis_name(const void* name, std::size_t len) noexcept {
  return len == kGenesisEventBytes && std::memcmp(name, kGenesisEvent, len) == 0;
}

int compare(const EventId& a, const EventId& b) noexcept {
  return std::memcmp(a.bytes.data(), b.bytes.data(), a.bytes.size());
}

void encode_text(const EventId& id, char* out) noexcept {
  hex::encode_lower(load_be64(id.bytes.data()), 16, out);
  hex::encode_lower(load_be64(id.bytes.data() + 8), 16, out + 16);
}

DecodeResult decode_text(const char* text, std::size_t len, EventId* out) noexcept {
  char digits[kTextChars];
  if (len == kDashedChars) {
    // 8-4-4-4-12: dashes at 8, 13, 18 and 23, digits elsewhere.
    std::size_t n = 0;
    for (std::size_t i = 0; i < len; ++i) {
      const bool dash_place = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash_place != (text[i] == '-')) return {DecodeStatus::bad_character, i};
      if (!dash_place) digits[n++] = text[i];
    }
    text = digits;
    len = kTextChars;
  } else if (len != kTextChars) {
    // Report a stray character before a wrong length, as the other decoders do.
    u128 ignored = 0;
    const DecodeResult r = hex::decode_u128(text, len, &ignored);
    return r.status == DecodeStatus::bad_character ? r : DecodeResult{DecodeStatus::bad_length, 0};
  }
  u128 v = 0;
  DecodeResult r = hex::decode_u128(text, len, &v);
  if (r.status != DecodeStatus::ok) {
    if (text == digits && r.status == DecodeStatus::bad_character) {
      // Map the position back into the dashed text.
      const std::size_t p = r.position;
      r.position = p + (p >= 8) + (p >= 12) + (p >= 16) + (p >= 20);
    }
    return r;
  }
  store_be64(out->bytes.data(), u128_hi(v));
  store_be64(out->bytes.data() + 8, u128_lo(v));
  return r;
}

std::uint32_t finish_checksum(crc32c::Stream& stream, std::uint64_t micros, std::uint32_t ledger,
                              const EventId& previous) noexcept {
  append_hex(stream, micros, 16);
  append_hex(stream, ledger, 8);
  char text[kTextChars];
  encode_text(previous, text);
  stream.append(text, sizeof text);
  return stream.value();
}

Genesis genesis(const char* name, std::size_t name_len, const char* description,
                std::size_t description_len, std::uint64_t micros) noexcept {
  crc32c::Stream s = genesis_head();
  s.append(kGenesisMeta, sizeof kGenesisMeta - 1);
  // jsonb prints keys shorter first, so "name" always precedes "description".
  s.append("{\"name\": ", 9);
  json_string::write(s, name, name_len);
  s.append(", \"description\": ", 17);
  json_string::write(s, description, description_len);
  s.push('}');
  return finish_genesis(s, micros);
}

Genesis genesis_of_texts(const char* meta, std::size_t meta_len, const char* data,
                         std::size_t data_len, std::uint64_t micros) noexcept {
  crc32c::Stream s = genesis_head();
  s.append(meta, meta_len);
  s.append(data, data_len);
  return finish_genesis(s, micros);
}

}  // namespace idgen::event_id
