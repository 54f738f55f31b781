// The replaced global operator new and delete of failing_allocation.hpp. Link into a test executable of its
// own: every allocation of that process comes through here.
#include "support/failing_allocation.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

namespace proofline::test_support {

namespace {

std::atomic<std::size_t> armed_bytes{0};  // 0: disarmed
std::atomic<unsigned> failures_left{0};
std::atomic<unsigned> failures{0};

/// Whether this allocation is one to fail: of the armed size, while failures are left (each taken once).
bool refuse(std::size_t bytes) noexcept {
  if (bytes == 0 || armed_bytes.load(std::memory_order_acquire) != bytes) return false;
  unsigned left = failures_left.load(std::memory_order_relaxed);
  while (left > 0) {
    if (failures_left.compare_exchange_weak(left, left - 1, std::memory_order_relaxed)) {
      failures.fetch_add(1, std::memory_order_relaxed);
      return true;
    }
  }
  return false;
}

/// What the standard library's operator new does: malloc, and while that fails, the new handler or
/// std::bad_alloc. An injected failure throws at once (a new handler cannot make room for it).
void* allocate(std::size_t bytes) {
  if (refuse(bytes)) throw std::bad_alloc();
  for (;;) {
    if (void* p = std::malloc(std::max<std::size_t>(bytes, 1))) return p;
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* allocate_aligned(std::size_t bytes, std::align_val_t alignment) {
  if (refuse(bytes)) throw std::bad_alloc();
  const std::size_t align = std::max(static_cast<std::size_t>(alignment), sizeof(void*));
  for (;;) {
    void* p = nullptr;
    if (posix_memalign(&p, align, std::max<std::size_t>(bytes, 1)) == 0) return p;
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* allocate_or_null(std::size_t bytes) noexcept {
  try {
    return allocate(bytes);
  } catch (...) {
    return nullptr;
  }
}

void* allocate_aligned_or_null(std::size_t bytes, std::align_val_t alignment) noexcept {
  try {
    return allocate_aligned(bytes, alignment);
  } catch (...) {
    return nullptr;
  }
}

}  // namespace

void fail_allocations_of(std::size_t bytes, unsigned times) noexcept {
  armed_bytes.store(0, std::memory_order_release);  // no allocation counts against the old arming meanwhile
  failures.store(0, std::memory_order_relaxed);
  failures_left.store(times, std::memory_order_relaxed);
  armed_bytes.store(bytes, std::memory_order_release);
}

unsigned stop_failing_allocations() noexcept {
  armed_bytes.store(0, std::memory_order_release);
  failures_left.store(0, std::memory_order_relaxed);
  return failures.load(std::memory_order_relaxed);
}

unsigned failed_allocations() noexcept {
  return failures.load(std::memory_order_relaxed);
}

}  // namespace proofline::test_support

using proofline::test_support::allocate;
using proofline::test_support::allocate_aligned;
using proofline::test_support::allocate_aligned_or_null;
using proofline::test_support::allocate_or_null;

// Memory from posix_memalign is freed by free, like malloc's, so every delete is the same.
void* operator new(std::size_t bytes) {
  return allocate(bytes);
}
void* operator new[](std::size_t bytes) {
  return allocate(bytes);
}
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  return allocate_or_null(bytes);
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  return allocate_or_null(bytes);
}
void* operator new(std::size_t bytes, std::align_val_t alignment) {
  return allocate_aligned(bytes, alignment);
}
void* operator new[](std::size_t bytes, std::align_val_t alignment) {
  return allocate_aligned(bytes, alignment);
}
void* operator new(std::size_t bytes, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_aligned_or_null(bytes, alignment);
}
void* operator new[](std::size_t bytes, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return allocate_aligned_or_null(bytes, alignment);
}

void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  std::free(p);
}
