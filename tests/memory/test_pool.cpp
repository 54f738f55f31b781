#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <future>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include <proofline/memory/budget.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

#include "memory/helpers.hpp"
#include "support/errors.hpp"
#include "support/waits.hpp"

using namespace proofline;
using namespace proofline::memory;
using namespace std::chrono_literals;
using memory::test::no_retry;
using memory::test::patient;
using memory::test::RecordingBackend;
using test_support::error_code;
using test_support::eventually;

TEST_CASE("memory/pool/every byte the pool holds is charged to the budget, leased or idle") {
  Budget budget("host", MiB);
  RecordingBackend backend;
  {
    PinnedPool pool(budget, backend);
    PinnedLease lease = pool.lease(100 * KiB);
    CHECK(lease.size() == 100 * KiB);
    CHECK(lease.capacity() == 100 * KiB);
    CHECK(budget.used() == 100 * KiB);
    CHECK(pool.stats().bytes_leased == 100 * KiB);
    lease.reset();
    CHECK(budget.used() == 100 * KiB);  // idle, still pinned, still charged
    CHECK(backend.live() == 100 * KiB);
    const PoolStats stats = pool.stats();
    CHECK(stats.bytes_idle == 100 * KiB);
    CHECK(stats.bytes_pinned == budget.used());
    CHECK(pool.trim_all() == 100 * KiB);
    CHECK(budget.used() == 0);
    CHECK(backend.live() == 0);
    pool.prewarm(3, 64 * KiB);
    CHECK(budget.used() == 192 * KiB);
  }
  // The pool unpins everything and gives the budget back when it goes.
  CHECK(budget.used() == 0);
  CHECK(backend.live() == 0);
}

TEST_CASE("memory/pool/an idle buffer is reused best-fit within the size tolerance and not beyond") {
  Budget budget("host", 4 * MiB);
  RecordingBackend backend;
  PinnedPool pool(budget, backend, PoolOptions{.fit_tolerance = 0.25});
  pool.prewarm(1, 72 * KiB);
  pool.prewarm(1, 64 * KiB);
  pool.prewarm(1, 128 * KiB);
  pool.mark_warm();

  PinnedLease a = pool.lease(60 * KiB);  // 64 and 72 KiB both fit within 75 KiB: the smaller one wins
  CHECK(a.capacity() == 64 * KiB);
  CHECK(a.size() == 60 * KiB);
  PinnedLease b = pool.lease(60 * KiB);  // the 64 KiB is out: the 72 KiB still fits
  CHECK(b.capacity() == 72 * KiB);
  CHECK(pool.stats().pin_calls_since_warm == 0);

  PinnedLease c = pool.lease(100 * KiB);  // 128 KiB is more than 125: pin a new one rather than waste it
  CHECK(c.capacity() == 100 * KiB);
  PinnedLease d = pool.lease(16 * KiB);  // never a 128 KiB buffer for 16 KiB
  CHECK(d.capacity() == 16 * KiB);
  const PoolStats stats = pool.stats();
  CHECK(stats.pin_calls_since_warm == 2);
  CHECK(stats.reuse_hits == 2);
  CHECK(stats.misses == 2);
  CHECK(stats.leases == 4);

  void* const reused = a.data();
  a.reset();
  PinnedLease e = pool.lease(64 * KiB);
  CHECK(e.data() == reused);
}

TEST_CASE("memory/pool/trim frees idle buffers largest first and returns their budget") {
  Budget budget("host", 4 * MiB);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  for (const std::uint64_t size : {16 * KiB, 64 * KiB, 32 * KiB, 128 * KiB}) pool.prewarm(1, size);
  PinnedLease leased = pool.lease(32 * KiB);  // leased buffers are never trimmed
  const std::uint64_t before = budget.used();

  CHECK(pool.trim(50 * KiB) == 128 * KiB);
  CHECK(budget.used() == before - 128 * KiB);
  CHECK(pool.trim(1) == 64 * KiB);
  CHECK(pool.trim(1) == 16 * KiB);
  CHECK(pool.trim(1) == 0);  // only the leased one is left
  CHECK(budget.used() == 32 * KiB);
  CHECK(leased.capacity() == 32 * KiB);
  const PoolStats stats = pool.stats();
  CHECK(stats.trimmed_buffers == 3);
  CHECK(stats.trimmed_bytes == 208 * KiB);
  CHECK(stats.buffers == 1);
}

TEST_CASE("memory/pool/a budget reserve trims idle pool buffers before it waits") {
  Budget budget("host", 256 * KiB, no_retry);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  pool.prewarm(4, 64 * KiB);
  REQUIRE(budget.available() == 0);
  Reservation other = budget.reserve(100 * KiB, Clock::now() + 20s);
  CHECK(pool.stats().trimmed_buffers == 2);
  CHECK(pool.stats().buffers == 2);
  CHECK(budget.stats().evictions == 1);
  CHECK(backend.live() + other.bytes() <= budget.total());
}

TEST_CASE("memory/pool/the pool is asked before a lower-priority evictor") {
  Budget budget("host", 256 * KiB, no_retry);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  std::optional<Reservation> resident = budget.reserve(128 * KiB);
  std::atomic<int> resident_calls{0};
  EvictorRegistration registration =
      budget.add_evictor("resident", residency_evictor_priority, [&](std::uint64_t) -> std::uint64_t {
        ++resident_calls;
        const std::uint64_t freed = resident ? resident->bytes() : 0;
        resident.reset();
        return freed;
      });
  pool.prewarm(2, 64 * KiB);
  Reservation first = budget.reserve(64 * KiB);
  CHECK(resident_calls.load() == 0);  // one idle pool buffer was enough
  CHECK(resident);
  Reservation second = budget.reserve(128 * KiB);  // the pool has 64 KiB idle: not enough on its own
  CHECK(resident_calls.load() == 1);
  CHECK_FALSE(resident);
  CHECK(pool.stats().buffers == 0);
}

TEST_CASE("memory/pool/a blocking lease is served by a returned buffer without pinning again") {
  Budget budget("host", 128 * KiB, no_retry);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  std::optional<PinnedLease> a = pool.lease(64 * KiB);
  PinnedLease b = pool.lease(64 * KiB);
  void* const a_data = a->data();
  pool.mark_warm();

  auto waiter = std::async(std::launch::async, [&] { return pool.lease(64 * KiB, patient()); });
  // Queued in the pool and, as its head, waiting in the budget after asking the evictors once.
  REQUIRE(eventually([&] { return pool.stats().waiting == 1 && budget.stats().waiting == 1; }));
  REQUIRE(eventually([&] { return budget.stats().evictor_calls >= 1; }));
  CHECK(waiter.wait_for(20ms) == std::future_status::timeout);
  a.reset();
  REQUIRE(waiter.wait_for(20s) == std::future_status::ready);
  PinnedLease got = waiter.get();
  CHECK(got.data() == a_data);
  const PoolStats stats = pool.stats();
  CHECK(stats.pin_calls_since_warm == 0);
  CHECK(stats.unpin_calls == 0);
  CHECK(stats.waits == 1);
  CHECK(stats.waiting == 0);
  CHECK(budget.stats().waiting == 0);
}

TEST_CASE("memory/pool/a blocking lease gets room by eviction when returned buffers do not fit it") {
  Budget budget("host", 128 * KiB, no_retry);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  std::optional<PinnedLease> returned = pool.lease(96 * KiB);
  PinnedLease held = pool.lease(32 * KiB);
  auto waiter = std::async(std::launch::async, [&] { return pool.lease(64 * KiB, patient()); });
  REQUIRE(eventually([&] { return pool.stats().waiting == 1 && budget.stats().waiting == 1; }));
  returned.reset();  // idle, but too big to serve 64 KiB within the tolerance: unpinned to make room
  REQUIRE(waiter.wait_for(20s) == std::future_status::ready);
  PinnedLease got = waiter.get();
  CHECK(got.capacity() == 64 * KiB);
  CHECK(pool.stats().trimmed_buffers == 1);
  CHECK(backend.max_live() <= budget.total());
}

TEST_CASE("memory/pool/leases larger than the whole budget fail at once") {
  Budget budget("host", MiB);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  CHECK(error_code([&] { (void)pool.lease(2 * MiB); }) == Errc::out_of_budget);
  CHECK(error_code([&] { (void)pool.try_lease(2 * MiB); }) == Errc::out_of_budget);
  CHECK(error_code([&] { (void)pool.lease_slot({512 * KiB, 512 * KiB, 4 * KiB}); }) == Errc::out_of_budget);
  CHECK(error_code([&] { (void)pool.prewarm(3, 512 * KiB); }) == Errc::out_of_budget);
  CHECK(error_code([&] { (void)pool.lease(0); }) == Errc::invalid_argument);
  CHECK(budget.used() == 0);
  CHECK(pool.stats().waits == 0);
}

TEST_CASE("memory/pool/a blocking lease times out and is cancelled cleanly") {
  Budget budget("host", 128 * KiB, no_retry);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  PinnedLease hold = pool.lease(128 * KiB);
  CHECK(error_code([&] { (void)pool.lease(64 * KiB, ReserveOptions{.deadline = Clock::now() + 20ms}); }) ==
        Errc::timeout);

  std::stop_source stop;
  auto head = std::async(std::launch::async, [&] {
    return error_code([&] { (void)pool.lease(64 * KiB, ReserveOptions{.stop = stop.get_token()}); });
  });
  REQUIRE(eventually([&] { return pool.stats().waiting == 1; }));
  auto second = std::async(std::launch::async, [&] {
    return error_code([&] { (void)pool.lease(32 * KiB, ReserveOptions{.stop = stop.get_token()}); });
  });
  REQUIRE(eventually([&] { return pool.stats().waiting == 2; }));
  stop.request_stop();
  CHECK(head.get() == Errc::cancelled);
  CHECK(second.get() == Errc::cancelled);
  const PoolStats stats = pool.stats();
  CHECK(stats.waiting == 0);
  CHECK(stats.bytes_leased == 128 * KiB);
  CHECK(budget.stats().waiting == 0);
  CHECK(budget.used() == 128 * KiB);
}

TEST_CASE("memory/pool/no pin calls in steady state after warm-up") {
  Budget budget("host", 4 * MiB);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  const std::uint64_t sizes[] = {96 * KiB, 96 * KiB, 96 * KiB, 64 * KiB};
  pool.prewarm_slots(2, sizes);
  pool.mark_warm();
  const PoolStats warm = pool.stats();
  for (int i = 0; i < 500; ++i) {
    SlotLease one = pool.lease_slot(sizes);
    std::optional<SlotLease> two = pool.try_lease_slot(sizes);
    REQUIRE(two);
  }
  PoolStats stats = pool.stats();
  CHECK(stats.pin_calls_since_warm == 0);
  CHECK(stats.reuse_hits - warm.reuse_hits == 500 * 8);
  CHECK(stats.slot_leases == 1000);
  CHECK(stats.bytes_leased == 0);

  // The counter does count: a third slot at once needs four pins.
  SlotLease one = pool.lease_slot(sizes);
  SlotLease two = pool.lease_slot(sizes);
  SlotLease three = pool.lease_slot(sizes);
  stats = pool.stats();
  CHECK(stats.pin_calls_since_warm == 4);
  CHECK(stats.pin_calls == 12);
  CHECK(stats.high_water == 3 * (3 * 96 + 64) * KiB);
}

TEST_CASE(
    "memory/pool/idle_slots counts the slots idle buffers make, and trim_except keeps only those wanted") {
  Budget budget("host", 4 * MiB);
  RecordingBackend backend;
  PinnedPool pool(budget, backend, PoolOptions{.fit_tolerance = 0.25});
  const std::uint64_t slot[] = {96 * KiB, 96 * KiB, 64 * KiB};
  const std::uint64_t other[] = {256 * KiB};
  CHECK(pool.idle_slots(slot) == 0);
  pool.prewarm_slots(3, slot);
  pool.prewarm(2, 256 * KiB);
  CHECK(pool.idle_slots(slot) == 3);
  CHECK(pool.idle_slots(other) == 2);
  {
    SlotLease out = pool.lease_slot(slot);  // leased buffers make no idle slot
    CHECK(pool.idle_slots(slot) == 2);
  }
  // A 60 KiB request takes the 64 KiB buffers (within the tolerance), but one slot of three 96 KiB buffers
  // also wants a third 96 KiB buffer: there are six, so two such slots.
  const std::uint64_t wide[] = {60 * KiB, 96 * KiB, 96 * KiB, 96 * KiB};
  CHECK(pool.idle_slots(wide) == 2);

  // Keeping only the 96 KiB and 64 KiB sizes unpins the 256 KiB buffers, nothing else.
  const std::uint64_t before = budget.used();
  CHECK(pool.trim_except(slot) == 2 * 256 * KiB);
  CHECK(budget.used() == before - 2 * 256 * KiB);
  CHECK(pool.idle_slots(slot) == 3);
  CHECK(pool.idle_slots(other) == 0);
  // A leased buffer is never trimmed; keeping nothing unpins every idle one.
  PinnedLease held = pool.lease(64 * KiB);
  CHECK(pool.trim_except({}) == 3 * 192 * KiB + 2 * 64 * KiB);
  CHECK(budget.used() == 64 * KiB);
  CHECK(backend.live() == 64 * KiB);
}

TEST_CASE("memory/pool/zero_on_free scrubs buffers before they are unpinned") {
  for (const bool zero : {true, false}) {
    CAPTURE(zero);
    Budget budget("host", MiB);
    RecordingBackend backend;
    {
      PinnedPool pool(budget, backend, PoolOptions{.zero_on_free = zero});
      {
        PinnedLease secret = pool.lease(64 * KiB);
        std::memset(secret.data(), 0xA5, secret.size());
      }
      pool.trim_all();
      {
        PinnedLease secret = pool.lease(32 * KiB);
        std::memset(secret.data(), 0x5A, secret.size());
      }
    }  // the second one is freed at shutdown
    CHECK(backend.freed_zeroed() == (zero ? 2 : 0));
    CHECK(backend.freed_dirty() == (zero ? 0 : 2));
  }
}

TEST_CASE("memory/pool/a failed pin leaks neither budget nor buffers") {
  Budget budget("host", MiB);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  backend.fail_after(0);
  CHECK(error_code([&] { (void)pool.lease(64 * KiB); }) == Errc::io);
  CHECK(budget.used() == 0);
  CHECK(pool.stats().bytes_pinned == 0);

  // A slot whose third pin fails: the two pinned buffers stay in the pool, idle and charged, for the next
  // lessee; nothing is leased.
  backend.fail_after(2);
  CHECK(error_code([&] { (void)pool.lease_slot({64 * KiB, 64 * KiB, 64 * KiB}); }) == Errc::io);
  PoolStats stats = pool.stats();
  CHECK(stats.bytes_leased == 0);
  CHECK(stats.bytes_idle == 128 * KiB);
  CHECK(budget.used() == 128 * KiB);
  CHECK(backend.live() == 128 * KiB);
  SlotLease slot = pool.lease_slot({64 * KiB, 64 * KiB, 64 * KiB});
  stats = pool.stats();
  CHECK(stats.reuse_hits == 2);
  CHECK(budget.used() == 192 * KiB);
}
