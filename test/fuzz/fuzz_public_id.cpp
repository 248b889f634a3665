// libFuzzer target: decoding any 16 bytes as a public id, under a key taken from the input, never
// fails, and whatever the constant-time validators accept re-encodes to exactly those 16 bytes
// (bigint and DistributedId), so a value is only ever returned for a genuine public id.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/public_id.hpp"

using namespace idgen;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 17) return 0;
  // Byte 0 picks the key length, the next 16 bytes are the public id, the rest (zero-padded) the
  // key: so the fuzzer explores keys and ids alike.
  const std::size_t key_length = 16 + 8 * (data[0] % 3);
  Uuid published;
  std::memcpy(published.bytes.data(), data + 1, 16);
  std::uint8_t key[AesBlockCipher::kMaxKeyLength] = {};
  std::memcpy(key, data + 17, std::min(size - 17, key_length));

  AesBlockCipher cipher;
  if (!cipher.set_key(key, key_length)) std::abort();
  Uuid p;
  if (!public_id::decrypt(cipher, published, &p)) std::abort();
  Uuid again;
  std::int64_t v = 0;
  if (public_id::bigint_of_plaintext(p, &v)) {
    if (v < 0) std::abort();
    if (!public_id::encrypt(cipher, public_id::plaintext_of_u64(static_cast<std::uint64_t>(v)),
                            &again) ||
        again.bytes != published.bytes) {
      std::abort();
    }
  }
  u128 d = 0;
  if (public_id::decimal28_of_plaintext(p, &d)) {
    if (d > kDecimal28Max) std::abort();
    if (!public_id::encrypt(cipher, public_id::plaintext_of_decimal28(d), &again) ||
        again.bytes != published.bytes) {
      std::abort();
    }
  }
  if (!public_id::encrypt(cipher, p, &again) || again.bytes != published.bytes) std::abort();
  return 0;
}
