// libFuzzer target: the strict base64 decoder and the key-text parser accept exactly canonical,
// padded standard base64 (every accepted text re-encodes, with OpenSSL, to itself), never read
// past the input, and leave the output wiped whenever they refuse; the key-ring parser (a key
// file of several lines) returns AES-length keys, no two equal, and wipes them all when it refuses.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <openssl/evp.h>

#include "core/base64.hpp"
#include "core/public_id.hpp"

using namespace idgen;

namespace {

bool all_zero(const std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] != 0) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  std::uint8_t out[96];
  std::memset(out, 0xa5, sizeof out);
  const base64::Base64Result r = base64::decode(text, size, out, sizeof out);
  if (r.status == base64::Base64Status::ok) {
    if (r.decoded > sizeof out || size != (r.decoded + 2) / 3 * 4) std::abort();
    unsigned char again[4 * sizeof out / 3 + 4];
    const int n = EVP_EncodeBlock(again, out, static_cast<int>(r.decoded));
    if (static_cast<std::size_t>(n) != size || std::memcmp(again, text, size) != 0) std::abort();
  } else if (r.status != base64::Base64Status::too_long && !all_zero(out, sizeof out)) {
    std::abort();
  } else if (r.status == base64::Base64Status::bad_character && r.position >= size) {
    std::abort();
  }

  std::uint8_t key[AesBlockCipher::kMaxKeyLength];
  const public_id::KeyParse k = public_id::parse_key_base64(text, size, key);
  if (k.status == public_id::KeyStatus::ok) {
    if (!is_aes_key_length(k.length)) std::abort();
  } else if (!all_zero(key, sizeof key)) {
    std::abort();
  }

  std::uint8_t ring[public_id::kMaxRingKeys][AesBlockCipher::kMaxKeyLength];
  std::size_t lengths[public_id::kMaxRingKeys];
  const public_id::KeyRingParse p = public_id::parse_key_ring(text, size, ring, lengths);
  if (p.key.status == public_id::KeyStatus::ok) {
    if (p.count == 0 || p.count > public_id::kMaxRingKeys) std::abort();
    for (std::size_t i = 0; i < p.count; ++i) {
      if (!is_aes_key_length(lengths[i])) std::abort();
      for (std::size_t j = 0; j < i; ++j) {
        if (lengths[i] == lengths[j] && std::memcmp(ring[i], ring[j], lengths[i]) == 0)
          std::abort();
      }
    }
  } else if (!all_zero(&ring[0][0], sizeof ring)) {
    std::abort();
  } else if (p.key.status == public_id::KeyStatus::not_base64 && p.key.base64.position >= size) {
    std::abort();
  }
  return 0;
}
