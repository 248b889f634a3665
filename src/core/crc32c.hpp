// CRC-32C (Castagnoli; CRC-32/ISCSI: reflected polynomial 0x82f63b78, initial value and final
// XOR 0xffffffff), the checksum of ledger event ids (docs/event-id.md) and the same CRC
// PostgreSQL uses for its WAL. The one implementation in idgen: the CPU's crc32 instruction
// where the CPU has it (SSE 4.2, detected at run time), else slice-by-8 tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/stack_safe.hpp"

namespace idgen::crc32c {

// Continues a CRC over more bytes: crc is the CRC of the bytes so far (0 for none), so
// extend(extend(0, a), b) is the CRC of a followed by b.
std::uint32_t extend(std::uint32_t crc, const void* data, std::size_t n) noexcept;

inline std::uint32_t of(const void* data, std::size_t n) noexcept { return extend(0, data, n); }

// The portable path, whatever the CPU (for tests that compare both paths).
std::uint32_t extend_portable(std::uint32_t crc, const void* data, std::size_t n) noexcept;

// Whether extend uses the CPU instruction on this machine.
bool uses_cpu_instruction() noexcept;

// A CRC fed in many small pieces (canonical JSON is written a few characters at a time): pieces
// gather in a buffer and reach extend in blocks, so the per-call cost is paid per block, not per
// piece. Any split of the same bytes gives the same value (CRC chaining). Trivially destructible
// (asserted below), so it may live on a stack that PostgreSQL longjmps across.
class Stream {
 public:
  void append(const void* data, std::size_t n) noexcept {
    if (n <= sizeof buffer_ - used_) {
      if (n != 0) std::memcpy(buffer_ + used_, data, n);
      used_ += n;
    } else {
      append_long(data, n);
    }
  }
  void push(char c) noexcept {
    if (used_ == sizeof buffer_) flush();
    buffer_[used_++] = static_cast<unsigned char>(c);
  }
  // The CRC of everything appended so far; the stream stays usable.
  std::uint32_t value() noexcept {
    flush();
    return crc_;
  }

 private:
  void append_long(const void* data, std::size_t n) noexcept;
  void flush() noexcept {
    crc_ = extend(crc_, buffer_, used_);
    used_ = 0;
  }

  std::uint32_t crc_ = 0;
  std::size_t used_ = 0;
  unsigned char buffer_[256] = {};
};
IDGEN_STACK_SAFE(Stream);

}  // namespace idgen::crc32c
