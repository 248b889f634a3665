// Long loops over user data (hashing hundreds of megabytes, walking a huge jsonb) stop for a
// pending cancel or termination (statement_timeout, pg_cancel_backend) at least once per MiB,
// instead of only after the whole value. CHECK_FOR_INTERRUPTS may longjmp out of the loop, so
// these helpers hold nothing that needs a destructor.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pg/postgres.hpp"

namespace idgen::pg {

// How many bytes a loop may process between two checks: large enough that the check costs
// nothing measurable, small enough that a cancel lands within about a millisecond.
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

// A text sink (append(const char*, std::size_t), push(char)) that passes everything on to another
// and checks for interrupts after every kInterruptCheckBytes written through it.
template <typename Sink>
class InterruptibleSink {
 public:
  explicit InterruptibleSink(Sink& sink) : sink_(sink) {}
  void append(const char* p, std::size_t n) {
    sink_.append(p, n);
    count(n);
  }
  void push(char c) {
    sink_.push(c);
    count(1);
  }

 private:
  void count(std::size_t n) {
    written_ += n;
    if (written_ >= kInterruptCheckBytes) {
      written_ = 0;
      CHECK_FOR_INTERRUPTS();
    }
  }

  Sink& sink_;
  std::size_t written_ = 0;
};

}  // namespace idgen::pg
