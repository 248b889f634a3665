// Single-block AES over OpenSSL EVP; see aes_block.hpp.
#include "core/aes_block.hpp"

#include <cstring>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "core/byte_order.hpp"

namespace idgen {
namespace {

const EVP_CIPHER* ecb_for(std::size_t key_length) noexcept {
  switch (key_length) {
    case 16:
      return EVP_aes_128_ecb();
    case 24:
      return EVP_aes_192_ecb();
    default:
      return EVP_aes_256_ecb();
  }
}

// A context keyed for one direction, with padding off: with padding on, decryption would hold
// back every block until a final call.
EVP_CIPHER_CTX* keyed_context(const std::uint8_t* key, std::size_t len, int encrypt) noexcept {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  if (ctx == nullptr) return nullptr;
  if (EVP_CipherInit_ex(ctx, ecb_for(len), nullptr, key, nullptr, encrypt) != 1 ||
      EVP_CIPHER_CTX_set_padding(ctx, 0) != 1) {
    EVP_CIPHER_CTX_free(ctx);  // frees and wipes the schedule
    return nullptr;
  }
  return ctx;
}

bool one_block(EVP_CIPHER_CTX* ctx, const std::uint8_t in[16], std::uint8_t out[16]) noexcept {
  if (ctx == nullptr) return false;
  int written = 0;
  return EVP_CipherUpdate(ctx, out, &written, in, 16) == 1 && written == 16;
}

}  // namespace

bool AesBlockCipher::set_key(const std::uint8_t* key, std::size_t len) noexcept {
  clear();
  if (!is_aes_key_length(len)) return false;
  encrypt_ = keyed_context(key, len, 1);
  decrypt_ = keyed_context(key, len, 0);
  if (encrypt_ == nullptr || decrypt_ == nullptr) {
    clear();
    return false;
  }
  std::memcpy(key_, key, len);
  key_length_ = len;
  return true;
}

void AesBlockCipher::clear() noexcept {
  // EVP_CIPHER_CTX_free cleanses the expanded key schedule before freeing it.
  EVP_CIPHER_CTX_free(encrypt_);
  EVP_CIPHER_CTX_free(decrypt_);
  encrypt_ = nullptr;
  decrypt_ = nullptr;
  OPENSSL_cleanse(key_, sizeof key_);
  key_length_ = 0;
}

bool AesBlockCipher::holds_key(const std::uint8_t* key, std::size_t len) const noexcept {
  return len == key_length_ && len != 0 && CRYPTO_memcmp(key_, key, len) == 0;
}

bool AesBlockCipher::encrypt(const std::uint8_t in[16], std::uint8_t out[16]) const noexcept {
  return one_block(encrypt_, in, out);
}

bool AesBlockCipher::decrypt(const std::uint8_t in[16], std::uint8_t out[16]) const noexcept {
  return one_block(decrypt_, in, out);
}

bool set_derived_key(AesBlockCipher& cipher, const std::uint8_t* master, std::size_t master_len,
                     const std::uint8_t label[16]) noexcept {
  std::uint8_t key[16] = {};
  const bool ok = cipher.set_key(master, master_len) && cipher.encrypt(label, key) &&
                  cipher.set_key(key, sizeof key);
  OPENSSL_cleanse(key, sizeof key);
  if (!ok) cipher.clear();
  return ok;
}

bool keyed_u64(const AesBlockCipher& cipher, std::uint64_t value, std::uint64_t* out) noexcept {
  std::uint8_t block[16] = {};
  store_be64(block, value);
  std::uint8_t result[16];
  if (!cipher.encrypt(block, result)) return false;
  *out = load_be64(result);
  return true;
}

}  // namespace idgen
