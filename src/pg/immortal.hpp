// Static storage for an object that must never be destroyed: Immortal<T> constructs T in place
// and has no destructor, so T's never runs.
//
// For OpenSSL-backed objects (AesBlockCipher) in static storage: a backend's exit runs OpenSSL's
// own atexit clean-up, after which freeing a cipher context could crash the exiting process.
// Constructed in place, so no allocation can fail at start-up.
#pragma once

#include <new>

#include "core/aes_block.hpp"
#include "core/stack_safe.hpp"

namespace idgen::pg {

template <typename T>
class Immortal {
 public:
  Immortal() noexcept { new (storage_) T(); }
  T& get() noexcept { return *reinterpret_cast<T*>(storage_); }

 private:
  alignas(T) unsigned char storage_[sizeof(T)];
};

// Trivially destructible whatever T is: that is the point.
IDGEN_STACK_SAFE(Immortal<AesBlockCipher>);

}  // namespace idgen::pg
