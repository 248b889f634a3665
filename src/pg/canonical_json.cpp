// See canonical_json.hpp. jsonb keeps object keys shorter-first, so every object's pairs are
// collected (the iterator skips into nested containers lazily) and sorted bytewise here.
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

struct Pair {
  const char* key;  // UTF-8
  std::size_t key_len;
  JsonbValue value;  // a scalar, or jbvBinary for a nested container
};

bool key_less(const Pair& a, const Pair& b) {
  const int c = std::memcmp(a.key, b.key, std::min(a.key_len, b.key_len));
  return c != 0 ? c < 0 : a.key_len < b.key_len;
}

template <typename Sink>
void write_string(Sink& sink, const char* s, int len) {
  const Utf8Bytes utf8 = utf8_bytes(s, len);
  json_string::write(sink, reinterpret_cast<const char*>(utf8.data), utf8.len);
}

template <typename Sink>
void write_container(Sink& sink, JsonbContainer* container);

template <typename Sink>
void write_value(Sink& sink, const JsonbValue& v) {
  switch (v.type) {
    case jbvNull:
      sink.append("null", 4);
      break;
    case jbvBool:
      if (v.val.boolean) {
        sink.append("true", 4);
      } else {
        sink.append("false", 5);
      }
      break;
    case jbvString:
      write_string(sink, v.val.string.val, v.val.string.len);
      break;
    case jbvNumeric: {
      char* digits =
          DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v.val.numeric)));
      sink.append(digits, std::strlen(digits));
      pfree(digits);
      break;
    }
    case jbvBinary:
      write_container(sink, v.val.binary.data);
      break;
    default:
      // Stored jsonb holds no other kinds (datetime values exist only inside jsonpath).
      elog(ERROR, "unexpected jsonb value type %d", static_cast<int>(v.type));
  }
}

template <typename Sink>
void write_object(Sink& sink, JsonbIterator** it, int pairs) {
  Pair local[16];
  Pair* sorted = pairs <= 16 ? local : static_cast<Pair*>(palloc(sizeof(Pair) * pairs));
  int n = 0;
  JsonbValue v;
  JsonbIteratorToken token;
  while ((token = JsonbIteratorNext(it, &v, true)) != WJB_END_OBJECT) {
    if (token == WJB_KEY) {
      const Utf8Bytes key = utf8_bytes(v.val.string.val, v.val.string.len);
      sorted[n].key = reinterpret_cast<const char*>(key.data);
      sorted[n].key_len = key.len;
    } else {  // WJB_VALUE, which follows its key
      sorted[n++].value = v;
    }
  }
  std::sort(sorted, sorted + n, key_less);
  sink.push('{');
  for (int i = 0; i < n; ++i) {
    if (i > 0) sink.push(',');
    json_string::write(sink, sorted[i].key, sorted[i].key_len);
    sink.push(':');
    write_value(sink, sorted[i].value);
  }
  sink.push('}');
  if (sorted != local) pfree(sorted);
}

template <typename Sink>
void write_container(Sink& sink, JsonbContainer* container) {
  check_stack_depth();
  JsonbIterator* it = JsonbIteratorInit(container);
  JsonbValue v;
  JsonbIteratorToken token = JsonbIteratorNext(&it, &v, true);
  if (token == WJB_BEGIN_OBJECT) {
    write_object(sink, &it, v.val.object.nPairs);
    return;
  }
  // WJB_BEGIN_ARRAY; a top-level scalar is stored as a one-element "raw scalar" array.
  const bool raw_scalar = v.val.array.rawScalar;
  if (!raw_scalar) sink.push('[');
  bool first = true;
  while ((token = JsonbIteratorNext(&it, &v, true)) == WJB_ELEM) {
    if (!first) sink.push(',');
    first = false;
    write_value(sink, v);
  }
  if (!raw_scalar) sink.push(']');
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
