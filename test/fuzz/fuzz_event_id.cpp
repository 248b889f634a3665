// libFuzzer target for ledger event ids: the text decoder accepts exactly 32 hex digits or the
// dashed 8-4-4-4-12 form, never reads past the input, and every accepted string re-encodes to its
// digits in lower case; the JSON string writer's output is quoted, holds no raw control byte and
// unescapes back to its input; and a genesis built from a name and description equals the
// genesis of the DATA_G text that jsonb would print for them.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/event_id.hpp"
#include "core/json_string.hpp"

using namespace idgen;

namespace {

struct StringSink {
  std::string text;
  void append(const char* p, std::size_t n) { text.append(p, n); }
  void push(char c) { text.push_back(c); }
};

// The inverse of json_string::write for the escapes it emits.
bool unescape(const std::string& quoted, std::string* out) {
  if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') return false;
  for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
    const char c = quoted[i];
    if (static_cast<unsigned char>(c) < 0x20 || c == '"') return false;
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (i + 2 >= quoted.size()) return false;
    const char e = quoted[++i];
    switch (e) {
      case '"':
        out->push_back('"');
        break;
      case '\\':
        out->push_back('\\');
        break;
      case 'b':
        out->push_back('\b');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'u': {
        if (i + 5 >= quoted.size() || quoted.compare(i + 1, 2, "00") != 0) return false;
        const std::string hex = quoted.substr(i + 3, 2);
        if (hex != std::string{static_cast<char>(std::tolower(hex[0])),
                               static_cast<char>(std::tolower(hex[1]))}) {
          return false;  // lower-case hex only
        }
        out->push_back(static_cast<char>(std::strtol(hex.c_str(), nullptr, 16)));
        i += 4;
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);

  event_id::EventId id;
  if (event_id::decode_text(text, size, &id).status == DecodeStatus::ok) {
    std::string digits;
    for (std::size_t i = 0; i < size; ++i) {
      if (text[i] != '-') digits.push_back(static_cast<char>(std::tolower(text[i])));
    }
    if (size != event_id::kTextChars && size != event_id::kDashedChars) std::abort();
    if (size == event_id::kDashedChars &&
        (text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-')) {
      std::abort();
    }
    char out[event_id::kTextChars];
    event_id::encode_text(id, out);
    if (digits != std::string(out, sizeof out)) std::abort();
  }

  StringSink sink;
  json_string::write(sink, text, size);
  std::string back;
  if (!unescape(sink.text, &back) || back != std::string(text, size)) std::abort();

  // Split the input into a name and a description at its first NUL-free half.
  const std::size_t cut = size / 2;
  const std::string name(text, cut);
  const std::string description(text + cut, size - cut);
  StringSink data_g;
  data_g.append("{\"name\": ", 9);
  json_string::write(data_g, name.data(), name.size());
  data_g.append(", \"description\": ", 17);
  json_string::write(data_g, description.data(), description.size());
  data_g.push('}');
  const std::uint64_t micros = size * 1000003u;
  const auto built =
      event_id::genesis(name.data(), name.size(), description.data(), description.size(), micros);
  const auto from_text =
      event_id::genesis_of_texts(event_id::kGenesisMeta, std::strlen(event_id::kGenesisMeta),
                                 data_g.text.data(), data_g.text.size(), micros);
  if (event_id::compare(built.id, from_text.id) != 0 || (built.ledger & 3u) != 0) std::abort();
  return 0;
}
