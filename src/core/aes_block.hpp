// AES (FIPS 197) on single 16-byte blocks under one key, both directions: the cipher of public
// identities (docs/public-id.md, "Format": ECB with exactly one block, no IV, no padding).
//
// OpenSSL's EVP interface does the work (AES-NI where the CPU has it, no secret-indexed tables).
// Setting a key expands both key schedules once; encrypting a block afterwards is one EVP call,
// so callers keep an AesBlockCipher per key instead of keying per block. Every schedule and key
// copy is wiped when it is replaced or dropped.
#pragma once

#include <cstddef>
#include <cstdint>

struct evp_cipher_ctx_st;  // OpenSSL's EVP_CIPHER_CTX

namespace idgen {

constexpr bool is_aes_key_length(std::size_t n) noexcept { return n == 16 || n == 24 || n == 32; }

// not stack-safe: its destructor wipes the key and frees OpenSSL's contexts. Glue keeps one per
// key in static storage and passes it by reference.
class AesBlockCipher {
 public:
  static constexpr std::size_t kMaxKeyLength = 32;

  AesBlockCipher() noexcept = default;
  ~AesBlockCipher() { clear(); }
  AesBlockCipher(const AesBlockCipher&) = delete;
  AesBlockCipher& operator=(const AesBlockCipher&) = delete;

  // Replaces the key with key[0..len) (16, 24 or 32 bytes). False when len is not an AES key
  // length or OpenSSL failed; the cipher is then empty.
  [[nodiscard]] bool set_key(const std::uint8_t* key, std::size_t len) noexcept;
  // Drops the key and its schedules, wiping them.
  void clear() noexcept;
  bool has_key() const noexcept { return key_length_ != 0; }
  // Whether key[0..len) is the key in use, compared in constant time.
  bool holds_key(const std::uint8_t* key, std::size_t len) const noexcept;

  // One block each way; false only when the cipher has no key or OpenSSL failed.
  [[nodiscard]] bool encrypt(const std::uint8_t in[16], std::uint8_t out[16]) const noexcept;
  [[nodiscard]] bool decrypt(const std::uint8_t in[16], std::uint8_t out[16]) const noexcept;

 private:
  evp_cipher_ctx_st* encrypt_ = nullptr;
  evp_cipher_ctx_st* decrypt_ = nullptr;
  std::uint8_t key_[kMaxKeyLength] = {};
  std::size_t key_length_ = 0;
};

// Keys `cipher` with a subkey of `master` (16, 24 or 32 bytes) for one purpose: AES-128 keyed
// with AES under `master` of the 16-byte `label`, so each label gives an unrelated key and the
// master key is never used directly. False when master's length is not an AES key length or
// OpenSSL failed; the cipher is then empty.
[[nodiscard]] bool set_derived_key(AesBlockCipher& cipher, const std::uint8_t* master,
                                   std::size_t master_len, const std::uint8_t label[16]) noexcept;

// A keyed 64-bit function of a 64-bit value: the first 8 bytes, big-endian, of the cipher's block
// of the value's 8 big-endian bytes and 8 zero bytes. Without the key, outputs say nothing of the
// values. False when the cipher has no key or OpenSSL failed.
[[nodiscard]] bool keyed_u64(const AesBlockCipher& cipher, std::uint64_t value,
                             std::uint64_t* out) noexcept;

}  // namespace idgen
