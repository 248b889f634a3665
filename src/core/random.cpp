// Per-process CSPRNG stream; see random.hpp for the construction and the fork rule.
#include "core/random.hpp"

#include <cerrno>
#include <cstring>

#include <pthread.h>
#include <sys/random.h>

#include <openssl/evp.h>

namespace idgen::random {
namespace {

constexpr std::size_t kKeySize = 32;  // AES-256
// 32 KiB per refill: one EVP call per ~2000 UUIDs keeps the refill cost below 1 ns per id, and
// the buffer stays small enough for thousands of backends.
constexpr std::size_t kBlockSize = 32 * 1024;

struct Stream {
  // Keyed with the key of the *next* block: the key that made the current block is gone as soon
  // as the block exists, so neither its served bytes nor the key can be recomputed from memory.
  EVP_CIPHER_CTX* cipher = nullptr;
  bool seeded = false;         // cipher holds a key for this process (kernel entropy or test seed)
  bool deterministic = false;  // ... and that key came from use_test_seed
  bool fork_handler_registered = false;
  std::size_t pos = kBlockSize;  // next unread byte of block; kBlockSize means empty
  unsigned char block[kBlockSize] = {};
};

Stream stream;

// Runs in the child after fork(): the child must not reuse the parent's key or buffered bytes.
void forget_after_fork() {
  std::memset(stream.block, 0, sizeof stream.block);
  stream.pos = kBlockSize;
  stream.seeded = false;
  stream.deterministic = false;
}

bool read_kernel_entropy(unsigned char* out, std::size_t n) noexcept {
  while (n > 0) {
    ssize_t got = getrandom(out, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    out += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

// Each key encrypts exactly one block, starting at counter 0, so a zero IV never repeats.
bool set_key(const unsigned char* key) noexcept {
  static const unsigned char zero_iv[16] = {};
  return EVP_EncryptInit_ex(stream.cipher, nullptr, nullptr, key, zero_iv) == 1;
}

// One-time process set-up: the fork handler and the cipher context.
bool prepare() noexcept {
  if (!stream.fork_handler_registered) {
    if (pthread_atfork(nullptr, nullptr, forget_after_fork) != 0) return false;
    stream.fork_handler_registered = true;
  }
  if (stream.cipher == nullptr) {
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    if (ctx == nullptr) return false;
    if (EVP_EncryptInit_ex(ctx, EVP_aes_256_ctr(), nullptr, nullptr, nullptr) != 1) {
      EVP_CIPHER_CTX_free(ctx);
      return false;
    }
    stream.cipher = ctx;
  }
  return true;
}

// Keys the stream and drops whatever was buffered under the previous key.
bool start_stream(const unsigned char* key, bool deterministic) noexcept {
  std::memset(stream.block, 0, sizeof stream.block);
  stream.pos = kBlockSize;
  stream.seeded = set_key(key);
  stream.deterministic = stream.seeded && deterministic;
  return stream.seeded;
}

bool seed() noexcept {
  if (!prepare()) return false;
  unsigned char key[kKeySize];
  const bool ok = read_kernel_entropy(key, kKeySize) && start_stream(key, false);
  std::memset(key, 0, kKeySize);
  return ok;
}

// Produces the next block of keystream; its first kKeySize bytes become the key of the block
// after it and are never served.
bool refill() noexcept {
  stream.pos = kBlockSize;
  if (!stream.seeded && !seed()) return false;
  std::memset(stream.block, 0, kBlockSize);
  int produced = 0;
  if (EVP_EncryptUpdate(stream.cipher, stream.block, &produced, stream.block,
                        static_cast<int>(kBlockSize)) != 1 ||
      produced != static_cast<int>(kBlockSize) || !set_key(stream.block)) {
    stream.seeded = false;  // start again from the kernel next time
    stream.deterministic = false;
    return false;
  }
  std::memset(stream.block, 0, kKeySize);
  stream.pos = kKeySize;
  return true;
}

}  // namespace

bool use_test_seed(const void* seed, std::size_t len, std::uint32_t stream) noexcept {
  use_kernel_entropy();
  if (!prepare()) return false;
  // Domain-separated so a test seed can never equal a key used for anything else.
  static const char kLabel[] = "idgen test random seed:";
  const unsigned char stream_bytes[4] = {
      static_cast<unsigned char>(stream >> 24), static_cast<unsigned char>(stream >> 16),
      static_cast<unsigned char>(stream >> 8), static_cast<unsigned char>(stream)};
  unsigned char key[kKeySize];
  unsigned int key_len = 0;
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  const bool hashed = md != nullptr && EVP_DigestInit_ex(md, EVP_sha256(), nullptr) == 1 &&
                      EVP_DigestUpdate(md, kLabel, sizeof kLabel - 1) == 1 &&
                      EVP_DigestUpdate(md, stream_bytes, sizeof stream_bytes) == 1 &&
                      EVP_DigestUpdate(md, seed, len) == 1 &&
                      EVP_DigestFinal_ex(md, key, &key_len) == 1 && key_len == kKeySize;
  EVP_MD_CTX_free(md);
  const bool ok = hashed && start_stream(key, true);
  std::memset(key, 0, kKeySize);
  if (!ok) use_kernel_entropy();
  return ok;
}

void use_kernel_entropy() noexcept {
  std::memset(stream.block, 0, sizeof stream.block);
  stream.pos = kBlockSize;
  stream.seeded = false;
  stream.deterministic = false;
}

bool is_deterministic() noexcept { return stream.deterministic; }

namespace {

// Any length, across blocks, refilling as needed. Out of line, so that fill's common case does
// not pay for its frame.
[[gnu::noinline]] bool fill_across_blocks(unsigned char* dst, std::size_t n) noexcept {
  while (n > 0) {
    if (stream.pos == kBlockSize && !refill()) return false;
    std::size_t take = kBlockSize - stream.pos;
    if (take > n) take = n;
    std::memcpy(dst, stream.block + stream.pos, take);
    // Served bytes are wiped so that a later memory disclosure cannot reveal earlier ids.
    std::memset(stream.block + stream.pos, 0, take);
    stream.pos += take;
    dst += take;
    n -= take;
  }
  return true;
}

}  // namespace

bool fill(void* out, std::size_t n) noexcept {
  auto* dst = static_cast<unsigned char*>(out);
  // What every generator asks for, 8 to 16 bytes that the block still holds: two 8-byte copies
  // and wipes, overlapping as needed, instead of calls to memcpy and memset for a length known
  // only at run time (they were most of the cost of a UUIDv7's random bits).
  if (n >= 8 && n <= 16 && kBlockSize - stream.pos >= n) {
    unsigned char* src = stream.block + stream.pos;
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
    std::memset(src, 0, 8);
    std::memset(src + n - 8, 0, 8);
    stream.pos += n;
    return true;
  }
  return fill_across_blocks(dst, n);
}

}  // namespace idgen::random
