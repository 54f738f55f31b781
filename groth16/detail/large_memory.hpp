// Internal: memory for the large arrays of a key load (section buffers, the constraint matrices, the subgroup
// check's scratch) in transparent huge pages.
//
// Why: touching a fresh 4 KiB page costs a page fault, and in a virtual machine a fault costs microseconds:
// reading a key into 4 KiB pages took about twenty times as long as into 2 MiB pages, and a first load spent
// more in faults on its fresh arrays than in its arithmetic. Blocks of large_memory_threshold and more are
// therefore 2 MiB-aligned, rounded up to whole 2 MiB pages (at most one huge page of slack per block) and
// advised MADV_HUGEPAGE; smaller ones come from the ordinary heap. The advice is a hint: where transparent
// huge pages are off, the memory is ordinary memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <vector>

namespace proofline::groth16::detail {

inline constexpr std::size_t large_memory_threshold = std::size_t{1} << 20;

/// `bytes` aligned to `alignment` (a power of two, at most 4096) as above, or nullptr when there is no
/// memory. Release it with free_large_memory.
void* allocate_large_memory(std::size_t bytes, std::size_t alignment) noexcept;
void free_large_memory(void* p) noexcept;

/// A std allocator over allocate_large_memory, for vectors that may grow large.
template <class T>
struct LargeMemoryAllocator {
  using value_type = T;

  LargeMemoryAllocator() noexcept = default;
  template <class U>
  LargeMemoryAllocator(const LargeMemoryAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    void* p = allocate_large_memory(n * sizeof(T), alignof(T) < 64 ? 64 : alignof(T));
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) noexcept { free_large_memory(p); }

  template <class U>
  friend bool operator==(const LargeMemoryAllocator&, const LargeMemoryAllocator<U>&) noexcept {
    return true;
  }
};

template <class T>
using LargeVector = std::vector<T, LargeMemoryAllocator<T>>;

}  // namespace proofline::groth16::detail
