#include <proofline/memory/free_heap.hpp>

#include <algorithm>
#include <climits>
#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace proofline::memory {

void return_free_heap() noexcept {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

void unmap_large_blocks_when_freed(unsigned long large_block_bytes) noexcept {
#if defined(__GLIBC__)
  // Setting the threshold also turns glibc's dynamic threshold off (and leaves the trim threshold as it is).
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(std::min<unsigned long>(large_block_bytes, INT_MAX)));
#else
  (void)large_block_bytes;
#endif
}

}  // namespace proofline::memory
