// CRC-32C; see crc32c.hpp.
#include "core/crc32c.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace idgen::crc32c {
namespace {

constexpr std::uint32_t kPolynomial = 0x82f63b78;  // reflected 0x1edc6f41

// kTables[k][b]: the CRC register after byte b followed by k zero bytes (slice-by-8).
constexpr std::array<std::array<std::uint32_t, 256>, 8> make_tables() {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t c = b;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1) != 0 ? (c >> 1) ^ kPolynomial : c >> 1;
    t[0][b] = c;
  }
  for (int k = 1; k < 8; ++k) {
    for (std::uint32_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
  }
  return t;
}

constexpr auto kTables = make_tables();

std::uint32_t raw_portable(std::uint32_t c, const unsigned char* p, std::size_t n) noexcept {
  while (n >= 8) {
    std::uint32_t lo = 0;
    std::uint32_t hi = 0;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    lo = __builtin_bswap32(lo);
    hi = __builtin_bswap32(hi);
#endif
    lo ^= c;
    c = kTables[7][lo & 0xff] ^ kTables[6][(lo >> 8) & 0xff] ^ kTables[5][(lo >> 16) & 0xff] ^
        kTables[4][lo >> 24] ^ kTables[3][hi & 0xff] ^ kTables[2][(hi >> 8) & 0xff] ^
        kTables[1][(hi >> 16) & 0xff] ^ kTables[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n-- > 0) c = (c >> 8) ^ kTables[0][(c ^ *p++) & 0xff];
  return c;
}

#if defined(__x86_64__)
// Compiled for SSE 4.2 alone, so the rest of the library runs on any x86-64; called only after
// the CPU reported the instruction.
__attribute__((target("sse4.2"))) std::uint32_t raw_sse42(std::uint32_t c, const unsigned char* p,
                                                          std::size_t n) noexcept {
  std::uint64_t c64 = c;
  while (n >= 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, 8);
    c64 = _mm_crc32_u64(c64, word);
    p += 8;
    n -= 8;
  }
  c = static_cast<std::uint32_t>(c64);
  while (n-- > 0) c = _mm_crc32_u8(c, *p++);
  return c;
}

bool cpu_has_sse42() noexcept {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

}  // namespace

std::uint32_t extend_portable(std::uint32_t crc, const void* data, std::size_t n) noexcept {
  return ~raw_portable(~crc, static_cast<const unsigned char*>(data), n);
}

std::uint32_t extend(std::uint32_t crc, const void* data, std::size_t n) noexcept {
#if defined(__x86_64__)
  if (cpu_has_sse42()) return ~raw_sse42(~crc, static_cast<const unsigned char*>(data), n);
#endif
  return extend_portable(crc, data, n);
}

// A piece that does not fit what is left of the buffer.
void Stream::append_long(const void* data, std::size_t n) noexcept {
  flush();
  if (n >= sizeof buffer_) {
    crc_ = extend(crc_, data, n);
    return;
  }
  std::memcpy(buffer_, data, n);
  used_ = n;
}

bool uses_cpu_instruction() noexcept {
#if defined(__x86_64__)
  return cpu_has_sse42();
#else
  return false;
#endif
}

}  // namespace idgen::crc32c
