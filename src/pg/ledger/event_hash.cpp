// See ledger/event_hash.hpp.
#include "pg/ledger/event_hash.hpp"

#include <cstring>

#include "pg/ledger/canonical_json.hpp"
#include "pg/convert.hpp"

namespace idgen::pg {
namespace {

Utf8Bytes jsonb_text(Jsonb* value) {
  const char* text = JsonbToCString(nullptr, &value->root, static_cast<int>(VARSIZE(value)));
  return utf8_bytes(text, static_cast<int>(std::strlen(text)));
}

}  // namespace

std::uint32_t regular_checksum(text* event, Jsonb* entities, Jsonb* meta, Jsonb* data,
                               std::uint64_t micros, std::uint32_t ledger,
                               const event_id::EventId& previous) {
  crc32c::Stream stream;
  const Utf8Bytes name = utf8_bytes(event);
  stream.append(name.data, name.len);
  canonical_json_crc(stream, entities);
  canonical_json_crc(stream, meta);
  canonical_json_crc(stream, data);
  return event_id::finish_checksum(stream, micros, ledger, previous);
}

event_id::LedgerWalk::GenesisFacts genesis_facts(text* event, Jsonb* entities, Jsonb* meta,
                                                 Jsonb* data, std::uint64_t micros) {
  const Utf8Bytes name = utf8_bytes(event);
  const Utf8Bytes meta_text = jsonb_text(meta);
  const Utf8Bytes data_text = jsonb_text(data);
  event_id::LedgerWalk::GenesisFacts facts;
  facts.named_genesis = event_id::is_genesis_name(name.data, name.len);
  facts.entities_empty = JB_ROOT_IS_OBJECT(entities) && JB_ROOT_COUNT(entities) == 0;
  facts.recomputed = event_id::genesis_of_texts(
      reinterpret_cast<const char*>(meta_text.data), meta_text.len,
      reinterpret_cast<const char*>(data_text.data), data_text.len, micros);
  return facts;
}

void walk_event(event_id::LedgerWalk& walk, const event_id::EventId& id, text* event,
                Jsonb* entities, Jsonb* meta, Jsonb* data) {
  const event_id::Parts parts = event_id::unpack(id);
  if (walk.at_genesis()) {
    walk.genesis(id, genesis_facts(event, entities, meta, data, parts.micros));
    return;
  }
  if (!walk.structure(id)) return;
  walk.checksum(id, regular_checksum(event, entities, meta, data, parts.micros, parts.ledger,
                                     walk.previous()));
}

}  // namespace idgen::pg
