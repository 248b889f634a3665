// See canonical_json.hpp. jsonb keeps object keys shorter-first, so every object's pairs are
// collected and sorted bytewise here.
#include "pg/canonical_json.hpp"

#include <algorithm>
#include <cstring>

#include "core/json_string.hpp"
#include "pg/convert.hpp"

namespace idgen::pg {
namespace {

struct TextSink {
  StringInfo out;
  void append(const char* p, std::size_t n) { appendBinaryStringInfo(out, p, static_cast<int>(n)); }
  void push(char c) { appendStringInfoChar(out, c); }
};

// A child of a jsonb container, read straight from the on-disk format (utils/jsonb.h): its JEntry
// and where its data lies. Walking the JEntry arrays directly, with JBE_ADVANCE_OFFSET, visits
// each container once without allocating an iterator per level.
struct Child {
  JEntry entry;
  const char* data;  // start of the child's data (before any alignment padding)
  std::uint32_t len;
};

struct Pair {
  const char* key;  // UTF-8
  std::size_t key_len;
  Child value;
};

bool key_less(const Pair& a, const Pair& b) {
  const int c = std::memcmp(a.key, b.key, std::min(a.key_len, b.key_len));
  return c != 0 ? c < 0 : a.key_len < b.key_len;
}

template <typename Sink>
void write_string(Sink& sink, const char* s, std::uint32_t len) {
  const Utf8Bytes utf8 = utf8_bytes(s, static_cast<int>(len));
  json_string::write(sink, reinterpret_cast<const char*>(utf8.data), utf8.len);
}

template <typename Sink>
void write_container(Sink& sink, const JsonbContainer* container);

template <typename Sink>
void write_value(Sink& sink, const Child& child) {
  const JEntry e = child.entry;
  if (JBE_ISSTRING(e)) {
    write_string(sink, child.data, child.len);
  } else if (JBE_ISNUMERIC(e)) {
    const auto numeric = reinterpret_cast<Numeric>(const_cast<char*>(child.data));
    char* digits = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(numeric)));
    sink.append(digits, std::strlen(digits));
    pfree(digits);
  } else if (JBE_ISBOOL_TRUE(e)) {
    sink.append("true", 4);
  } else if (JBE_ISBOOL_FALSE(e)) {
    sink.append("false", 5);
  } else if (JBE_ISNULL(e)) {
    sink.append("null", 4);
  } else {
    write_container(sink, reinterpret_cast<const JsonbContainer*>(child.data));
  }
}

template <typename Sink>
void write_container(Sink& sink, const JsonbContainer* container) {
  check_stack_depth();
  const std::uint32_t header = container->header;
  const int count = static_cast<int>(header & JB_CMASK);
  const bool object = (header & JB_FOBJECT) != 0;
  const int entries = object ? 2 * count : count;
  const char* base = reinterpret_cast<const char*>(&container->children[entries]);
  std::uint32_t offset = 0;
  // The i-th child, given that `offset` is where it starts; advances `offset` past it.
  const auto next_child = [&](int i) {
    const JEntry e = container->children[i];
    const std::uint32_t start = offset;
    JBE_ADVANCE_OFFSET(offset, e);
    Child c{e, base + start, offset - start};
    // Numerics and containers start at the next 4-byte boundary of the data (padding counts in
    // their length), as jsonb writes them.
    if (JBE_ISNUMERIC(e) || JBE_ISCONTAINER(e)) c.data = base + INTALIGN(start);
    return c;
  };
  if (!object) {
    // A top-level scalar is stored as a one-element "raw scalar" array.
    const bool raw_scalar = (header & JB_FSCALAR) != 0;
    if (!raw_scalar) sink.push('[');
    for (int i = 0; i < count; ++i) {
      if (i > 0) sink.push(',');
      write_value(sink, next_child(i));
    }
    if (!raw_scalar) sink.push(']');
    return;
  }
  Pair local[16];
  Pair* pairs = count <= 16 ? local : static_cast<Pair*>(palloc(sizeof(Pair) * count));
  for (int i = 0; i < count; ++i) {  // keys first, then values, in the same order
    const Child key = next_child(i);
    const Utf8Bytes utf8 = utf8_bytes(key.data, static_cast<int>(key.len));
    pairs[i].key = reinterpret_cast<const char*>(utf8.data);
    pairs[i].key_len = utf8.len;
  }
  for (int i = 0; i < count; ++i) pairs[i].value = next_child(count + i);
  // jsonb keeps keys shorter-first, which is already bytewise order whenever no longer key
  // sorts before a shorter one (common for short ASCII keys); only then is a sort needed.
  if (!std::is_sorted(pairs, pairs + count, key_less)) std::sort(pairs, pairs + count, key_less);
  sink.push('{');
  for (int i = 0; i < count; ++i) {
    if (i > 0) sink.push(',');
    json_string::write(sink, pairs[i].key, pairs[i].key_len);
    sink.push(':');
    write_value(sink, pairs[i].value);
  }
  sink.push('}');
  if (pairs != local) pfree(pairs);
}

}  // namespace

void canonical_json_crc(crc32c::Stream& stream, Jsonb* value) {
  write_container(stream, &value->root);
}

void canonical_json_text(StringInfo out, Jsonb* value) {
  TextSink sink{out};
  write_container(sink, &value->root);
}

}  // namespace idgen::pg
