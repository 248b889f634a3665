// Long hashes over user data (hundreds of megabytes of text or bytea) stop for a pending cancel
// or termination (statement_timeout, pg_cancel_backend) at least once per MiB, instead of only
// after the whole value. CHECK_FOR_INTERRUPTS may longjmp out of the loop, so this holds nothing
// that needs a destructor. (Canonical JSON checks per number of values walked instead.)
#pragma once

#include <cstddef>
#include <cstdint>

#include "pg/postgres.hpp"

IDGEN_BEGIN_SERVER_HEADERS
#include "miscadmin.h"
IDGEN_END_SERVER_HEADERS

namespace idgen::pg {

// How many bytes a loop may process between two checks: large enough that the check costs
// nothing measurable, small enough that a cancel lands within a few milliseconds.
constexpr std::size_t kInterruptCheckBytes = std::size_t{1} << 20;

// Hands data to feed(const std::uint8_t*, std::size_t) in pieces of kInterruptCheckBytes,
// checking for interrupts before each piece.
template <typename Feed>
void feed_interruptibly(const std::uint8_t* data, std::size_t len, Feed&& feed) {
  while (len > 0) {
    CHECK_FOR_INTERRUPTS();
    const std::size_t piece = len < kInterruptCheckBytes ? len : kInterruptCheckBytes;
    feed(data, piece);
    data += piece;
    len -= piece;
  }
}

}  // namespace idgen::pg
