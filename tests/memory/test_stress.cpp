#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include <proofline/memory/budget.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/memory/residency.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/log.hpp>
#include <proofline/util/scope_guard.hpp>
#include <proofline/util/size.hpp>

#include "memory/helpers.hpp"

using namespace proofline;
using namespace proofline::memory;
using namespace std::chrono_literals;
using memory::test::RecordingBackend;

namespace {

bool holds(std::span<const std::byte> bytes, std::byte mark) {
  for (const std::byte b : bytes) {
    if (b != mark) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("memory/stress/many threads and thousands of leases never exceed the budget and leak nothing") {
  constexpr std::uint64_t total = 2 * MiB;
  constexpr int threads = 8;
  constexpr int rounds = 600;
  const std::uint64_t sizes[] = {4 * KiB, 12 * KiB, 32 * KiB, 64 * KiB, 100 * KiB, 256 * KiB};

  // Evictions are logged at info; hundreds of them here would bury the test output.
  const log::Level level = log::level();
  log::set_level(log::Level::warn);
  const ScopeGuard restore([level] { log::set_level(level); });

  Budget budget("host", total, BudgetOptions{.evict_retry = 2ms});
  RecordingBackend backend;
  std::atomic<int> failures{0};  // blocking calls that did not get what they asked for: none may
  std::atomic<int> overlaps{0};  // a buffer seen with another holder's mark
  std::atomic<int> granted{0};
  {
    PinnedPool pool(budget, backend, PoolOptions{.zero_on_free = true});
    Residency residency(budget, ResidencyOptions{.idle_timeout = 0s});
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        std::mt19937 random(static_cast<unsigned>(t) * 7919u + 1);
        const auto mark = static_cast<std::byte>(t + 1);
        const auto pick = [&] { return sizes[random() % std::size(sizes)]; };
        for (int i = 0; i < rounds; ++i) {
          // Each thread holds at most one thing at a time, so every blocking call must succeed; a timeout
          // would mean a lost wake-up or a deadlock.
          const ReserveOptions patient{.deadline = Clock::now() + 60s};
          try {
            switch (random() % 7) {
              case 0:
              case 1: {
                PinnedLease lease = pool.lease(pick(), patient);
                std::memset(lease.data(), static_cast<int>(mark), lease.size());
                std::this_thread::yield();
                if (!holds(lease.bytes(), mark)) ++overlaps;
                break;
              }
              case 2: {
                if (auto lease = pool.try_lease(pick())) {
                  std::memset(lease->data(), static_cast<int>(mark), lease->size());
                  if (!holds(lease->bytes(), mark)) ++overlaps;
                }
                break;
              }
              case 3: {
                const std::uint64_t slot[] = {pick(), pick(), pick()};
                SlotLease lease = pool.lease_slot(slot, patient);
                for (std::size_t b = 0; b < lease->count(); ++b)
                  std::memset(lease->data(b), static_cast<int>(mark), lease->size(b));
                std::this_thread::yield();
                for (std::size_t b = 0; b < lease->count(); ++b) {
                  if (!holds(lease->buffer(b), mark)) ++overlaps;
                }
                break;
              }
              case 4: {
                const std::uint64_t slot[] = {pick(), pick()};
                if (PinnedSlot* raw = pool.try_acquire_slot(slot)) {
                  std::memset(raw->data(0), static_cast<int>(mark), raw->size(0));
                  if (!holds(raw->buffer(0), mark)) ++overlaps;
                  pool.release_slot(raw);
                }
                break;
              }
              case 5: {
                // Another consumer of the same budget (a per-job working set).
                Reservation working = budget.reserve(pick() * 2, patient);
                std::this_thread::yield();
                break;
              }
              case 6: {
                // Resident regions competing for the same room, evicted LRU when idle.
                const std::string name = "key" + std::to_string(random() % 4);
                const std::uint64_t bytes = 128 * KiB;
                ResidentHandle handle = residency.acquire(
                    name, bytes,
                    [&](const std::string&) {
                      return LoadedRegion{
                          std::shared_ptr<void>(new std::byte[bytes], std::default_delete<std::byte[]>()),
                          bytes};
                    },
                    patient);
                if (handle.bytes() != bytes) ++overlaps;
                break;
              }
            }
            ++granted;
          } catch (const Error& e) {
            ++failures;
            MESSAGE("thread " << t << " round " << i << ": " << e.what());
          }
          if (i % 97 == 0) pool.trim(pick());
        }
      });
    }
    for (auto& worker : workers) worker.join();

    const PoolStats stats = pool.stats();
    CHECK(stats.bytes_leased == 0);
    CHECK(stats.slots_out == 0);
    CHECK(stats.waiting == 0);
    CHECK(stats.bytes_pinned == backend.live());
    CHECK(budget.used() == stats.bytes_pinned + residency.stats().bytes_resident);
    MESSAGE("leases " << stats.leases << ", reuse hits " << stats.reuse_hits << ", pins " << stats.pin_calls
                      << ", trimmed " << stats.trimmed_buffers << ", budget waits " << budget.stats().waits
                      << ", evictions " << budget.stats().evictions);
    CHECK(stats.leases > 1000);
  }
  CHECK(failures.load() == 0);
  CHECK(overlaps.load() == 0);
  CHECK(granted.load() == threads * rounds);
  // What was really pinned never went past the budget, and everything came back.
  CHECK(backend.max_live() <= total);
  CHECK(backend.live() == 0);
  CHECK(budget.used() == 0);
  CHECK(budget.stats().waiting == 0);
  CHECK(backend.freed_dirty() == 0);  // zero_on_free: no witness bytes left in freed pages
}
