// The one source of random bits in idgen: a per-process CSPRNG stream.
//
// Every generator takes its random bits from here. The stream is AES-256-CTR keystream (OpenSSL)
// under a key drawn from the kernel (getrandom), produced in large blocks so an id costs a memcpy,
// not a system call or a DRBG call. Each block re-keys the cipher from its own first 32 bytes at
// once ("fast key erasure"), and served bytes are wiped, so bytes already handed out cannot be
// recomputed from the process's memory.
//
// Fork safety: PostgreSQL forks every backend from the postmaster, which may have loaded idgen via
// shared_preload_libraries. A pthread_atfork child handler discards the buffer and the key, so a
// child always re-seeds from the kernel before its first id and never repeats its parent's bytes.
//
// Not thread-safe: one stream per process, as PostgreSQL backends are single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idgen::random {

// Fills out[0..n) with cryptographically secure random bytes. Returns false only when the kernel
// or OpenSSL refused to provide them; out is then left unspecified and must not be used.
[[nodiscard]] bool fill(void* out, std::size_t n) noexcept;

// Test mode: the same construction keyed with SHA-256 of `seed` and a stream number instead of
// kernel entropy, so that the same sequence of calls yields the same bytes. Processes that share a
// seed must use different stream numbers (a session 0, its parallel workers 1, 2, ...), or they
// would replay each other's bytes. For test suites only: the bytes are as predictable as the
// seed. False when OpenSSL failed (the stream is then back on the kernel).
[[nodiscard]] bool use_test_seed(const void* seed, std::size_t len, std::uint32_t stream) noexcept;
// Leaves test mode: the next bytes come from a fresh kernel-seeded key.
void use_kernel_entropy() noexcept;
bool is_deterministic() noexcept;

}  // namespace idgen::random
