// Allocations that fail on demand, for tests of what the code does when memory runs out. An executable that
// links failing_allocation.cpp gets its global operator new and delete (every form: arrays, aligned,
// nothrow, sized) replaced by forwarders to malloc and free. Armed, the allocations of one exact size fail
// (std::bad_alloc; null from the nothrow forms) a bounded number of times, on whichever thread asks:
// deterministic, unlike a memory limit, when the size is one only the allocation under test asks for (a
// string of a length nothing else has). Disarmed, the forwarders do what the standard library's own do.
#pragma once

#include <cstddef>

namespace proofline::test_support {

/// From now on, the next `times` allocations of exactly `bytes` bytes (not 0) fail. Replaces an arming
/// still in force and restarts the count of failures.
void fail_allocations_of(std::size_t bytes, unsigned times = 1) noexcept;
/// Disarms; returns how many allocations failed since the last arming.
unsigned stop_failing_allocations() noexcept;
/// How many allocations failed since the last arming.
unsigned failed_allocations() noexcept;

/// Armed for its scope, so that a failed check cannot leave the rest of the process failing.
class FailingAllocations {
 public:
  explicit FailingAllocations(std::size_t bytes, unsigned times = 1) noexcept {
    fail_allocations_of(bytes, times);
  }
  ~FailingAllocations() { stop_failing_allocations(); }
  FailingAllocations(const FailingAllocations&) = delete;
  FailingAllocations& operator=(const FailingAllocations&) = delete;
};

}  // namespace proofline::test_support
