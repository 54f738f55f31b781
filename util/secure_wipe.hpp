// Wiping secrets (random blinding factors, key material) from memory before it is released or reused. A plain
// memset of memory that is not read again is a dead store the compiler may remove; secure_wipe is not.
#pragma once

#include <string.h>

#include <cstddef>

namespace proofline {

/// Sets `size` bytes at `data` to zero in a way the optimizer keeps.
inline void secure_wipe(void* data, std::size_t size) noexcept {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 25))
  ::explicit_bzero(data, size);
#else
  // Stores through a volatile pointer are observable behaviour, so none of them is dropped.
  volatile unsigned char* bytes = static_cast<volatile unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = 0;
#endif
}

}  // namespace proofline
