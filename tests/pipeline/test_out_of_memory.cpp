// Running out of memory, on demand: allocations of one size fail (support/failing_allocation.hpp, which
// replaces operator new in this executable alone).
#include <doctest/doctest.h>

#include <cstdint>
#include <new>
#include <thread>

#include "support/failing_allocation.hpp"

using namespace proofline;
using test_support::failed_allocations;
using test_support::FailingAllocations;

TEST_CASE("pipeline/faults/failing allocations hit one size a bounded number of times, on any thread") {
  constexpr std::size_t size = 4099;
  {
    FailingAllocations failing(size, 2);
    void* other = ::operator new(size + 1);  // another size is served
    ::operator delete(other);
    std::thread([] { CHECK_THROWS_AS(static_cast<void>(::operator new(size)), std::bad_alloc); }).join();
    CHECK(::operator new[](size, std::nothrow) == nullptr);
    void* third = ::operator new(size);  // both failures taken: served again
    ::operator delete(third, size);
    CHECK(failed_allocations() == 2);
  }
  // Disarmed, every form is served (aligned ones aligned).
  void* plain = ::operator new(size);
  void* array = ::operator new[](size, std::nothrow);
  void* aligned = ::operator new (size, std::align_val_t{256});
  CHECK(plain != nullptr);
  CHECK(array != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(aligned) % 256 == 0);
  ::operator delete(plain);
  ::operator delete[](array);
  ::operator delete (aligned, std::align_val_t{256});
  CHECK(failed_allocations() == 2);
}
