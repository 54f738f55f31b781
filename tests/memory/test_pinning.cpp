#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include <proofline/memory/pinning.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

#include "memory/helpers.hpp"

using namespace proofline;
using namespace proofline::memory;

namespace {

// Writes a random pattern over the whole block and reads it back: every page must be mapped and writable.
void check_writable(const PinnedBuffer& buffer, std::uint32_t seed) {
  auto* words = static_cast<std::uint32_t*>(buffer.data);
  const std::size_t count = buffer.bytes / sizeof(std::uint32_t);
  std::mt19937 fill(seed);
  for (std::size_t i = 0; i < count; ++i) words[i] = fill();
  std::mt19937 check(seed);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < count; ++i) wrong += words[i] != check() ? 1 : 0;
  CHECK(wrong == 0);
}

bool all_zero(const PinnedBuffer& buffer) {
  const auto* bytes = static_cast<const unsigned char*>(buffer.data);
  for (std::uint64_t i = 0; i < buffer.bytes; ++i) {
    if (bytes[i] != 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("memory/pinning/backend names round-trip and unknown names are rejected") {
  for (const PinningKind kind :
       {PinningKind::cuda_host_alloc, PinningKind::cuda_host_register, PinningKind::host}) {
    CHECK(parse_pinning_kind(to_string(kind)) == kind);
  }
  try {
    (void)parse_pinning_kind("cuda");
    FAIL("accepted an unknown backend name");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_argument);
    CHECK(std::string(e.what()).find("cuda-register") != std::string::npos);
  }
}

TEST_CASE("memory/pinning/the host backend maps whole zeroed pages and counts every pin and unpin") {
  auto backend = make_backend(PinningKind::host, BackendOptions{.touch_threads = 1, .huge_pages = false});
  CHECK(backend->kind() == PinningKind::host);
  const std::uint64_t page = backend->round_size(1);
  CHECK(page >= 4096);
  CHECK(backend->round_size(3 * page + 1) == 4 * page);
  CHECK(backend->round_size(4 * page) == 4 * page);

  const PinnedBuffer buffer = backend->allocate(3 * page + 1);
  CHECK(buffer.bytes == 4 * page);
  CHECK(reinterpret_cast<std::uintptr_t>(buffer.data) % page == 0);
  CHECK(all_zero(buffer));
  check_writable(buffer, 1);
  // The backend says a block is locked only if mlock succeeded; once it failed, pins() says so too.
  if (!buffer.page_locked) CHECK_FALSE(backend->pins());

  PinStats stats = backend->stats();
  CHECK(stats.pin_calls == 1);
  CHECK(stats.bytes_live == 4 * page);
  CHECK(stats.bytes_pinned == 4 * page);
  CHECK(stats.pin_seconds > 0);
  backend->deallocate(buffer, true);
  stats = backend->stats();
  CHECK(stats.unpin_calls == 1);
  CHECK(stats.bytes_live == 0);
  CHECK_THROWS_AS(backend->allocate(0), Error);
  CHECK(backend->stats().pin_calls == 1);
}

namespace {

/// The VmFlags of the mapping of this process that holds `address` (from /proc/self/smaps; empty if none).
std::string mapping_flags(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<unsigned long>(address);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long begin = 0, end = 0;
    // Mapping headers start "BEGIN-END perms ..."; field lines ("Size:", "Anonymous:") do not parse as two
    // hexadecimal numbers around a dash.
    if (std::sscanf(line.c_str(), "%lx-%lx", &begin, &end) == 2) {
      inside = begin <= at && at < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return {};
}

}  // namespace

TEST_CASE("memory/pinning/mapped blocks stay out of core dumps") {
  auto backend = make_backend(PinningKind::host, BackendOptions{.touch_threads = 1, .huge_pages = false});
  const PinnedBuffer buffer = backend->allocate(64 * KiB);
  const std::string flags = mapping_flags(buffer.data);
  REQUIRE_FALSE(flags.empty());
  CHECK(flags.find(" dd") != std::string::npos);  // MADV_DONTDUMP
  backend->deallocate(buffer, true);
}

TEST_CASE("memory/pinning/without mlock the host backend reports plain pages as unpinned") {
  auto backend = make_backend(PinningKind::host, BackendOptions{.huge_pages = false, .lock_pages = false});
  CHECK_FALSE(backend->pins());
  const PinnedBuffer buffer = backend->allocate(10000);
  CHECK_FALSE(buffer.page_locked);
  CHECK(backend->stats().unlocked_pins == 1);
  backend->deallocate(buffer);
}

TEST_CASE("memory/pinning/huge-page blocks are 2 MiB aligned and touched in parallel") {
  auto backend = make_backend(PinningKind::host,
                              BackendOptions{.touch_threads = 3, .huge_pages = true, .lock_pages = false});
  CHECK(backend->round_size(3 * MiB) == 4 * MiB);
  CHECK(backend->round_size(100 * KiB) == 100 * KiB);  // too small to be worth a huge page
  // Big enough that the first touch is split over threads (64 MiB each at least).
  const PinnedBuffer big = backend->allocate(130 * MiB);
  CHECK(big.bytes == 130 * MiB);
  CHECK(reinterpret_cast<std::uintptr_t>(big.data) % (2 * MiB) == 0);
  CHECK(all_zero(big));
  check_writable(big, 2);
  const PinnedBuffer small = backend->allocate(3 * MiB + 5);
  CHECK(small.bytes == 4 * MiB);
  CHECK(reinterpret_cast<std::uintptr_t>(small.data) % (2 * MiB) == 0);
  check_writable(small, 3);
  backend->deallocate(big, true);
  backend->deallocate(small);
  CHECK(backend->stats().bytes_live == 0);
}

TEST_CASE("memory/pinning/CUDA backends need a device and say so, or pin for real where there is one") {
  for (const PinningKind kind : {PinningKind::cuda_host_alloc, PinningKind::cuda_host_register}) {
    CAPTURE(to_string(kind));
    if (!cuda_device_available()) {
      try {
        (void)make_backend(kind);
        FAIL("a CUDA backend was made without a device");
      } catch (const Error& e) {
        CHECK(e.code() == Errc::cuda);
        CHECK(std::string(e.what()).find("needs a CUDA device") != std::string::npos);
        CHECK(std::string(e.what()).find(std::string(to_string(kind))) != std::string::npos);
      }
      continue;
    }
    auto backend = make_backend(kind);
    CHECK(backend->pins());
    const PinnedBuffer buffer = backend->allocate(5 * MiB);
    CHECK(buffer.page_locked);
    CHECK(buffer.bytes >= 5 * MiB);
    check_writable(buffer, 4);
    backend->deallocate(buffer, true);
    CHECK(backend->stats().bytes_live == 0);
  }
  CHECK(default_backend()->kind() ==
        (cuda_device_available() ? PinningKind::cuda_host_register : PinningKind::host));
}
