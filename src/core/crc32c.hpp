// CRC-32C (Castagnoli; CRC-32/ISCSI: reflected polynomial 0x82f63b78, initial value and final
// XOR 0xffffffff), the checksum of ledger event ids (spec event-id.md 9) and the same CRC
// PostgreSQL uses for its WAL. The one implementation in idgen: the CPU's crc32 instruction
// where the CPU has it (SSE 4.2, detected at run time), else slice-by-8 tables.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idgen::crc32c {

// Continues a CRC over more bytes: crc is the CRC of the bytes so far (0 for none), so
// extend(extend(0, a), b) is the CRC of a followed by b.
std::uint32_t extend(std::uint32_t crc, const void* data, std::size_t n) noexcept;

inline std::uint32_t of(const void* data, std::size_t n) noexcept { return extend(0, data, n); }

// The portable path, whatever the CPU (for tests that compare both paths).
std::uint32_t extend_portable(std::uint32_t crc, const void* data, std::size_t n) noexcept;

// Whether extend uses the CPU instruction on this machine.
bool uses_cpu_instruction() noexcept;

}  // namespace idgen::crc32c
