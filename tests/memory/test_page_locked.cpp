// memory::page_locked: heap memory and blocks of the host backend (mlock at most) are not page-locked for
// CUDA; blocks of a CUDA backend are, where a device exists (the GPU suite checks that on a device).
#include <doctest/doctest.h>

#include <span>
#include <vector>

#include <proofline/memory/page_locked.hpp>
#include <proofline/memory/pinning.hpp>

using namespace proofline::memory;

TEST_CASE("memory/page_locked/heap memory and host-backend blocks are not page-locked for CUDA") {
  const std::vector<std::byte> heap(1 << 20);
  CHECK_FALSE(page_locked(std::span<const std::byte>(heap)));
  CHECK_FALSE(page_locked({}));
  const auto host = make_backend(PinningKind::host);
  const PinnedBuffer block = host->allocate(1 << 20);
  CHECK_FALSE(page_locked({static_cast<const std::byte*>(block.data), block.bytes}));
  host->deallocate(block);
  if (cuda_device_available()) {
    const auto cuda = make_backend(PinningKind::cuda_host_register);
    const PinnedBuffer pinned = cuda->allocate(1 << 20);
    CHECK(page_locked({static_cast<const std::byte*>(pinned.data), pinned.bytes}));
    cuda->deallocate(pinned);
  }
}
