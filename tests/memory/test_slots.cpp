#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <future>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include <proofline/memory/budget.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

#include "memory/helpers.hpp"
#include "support/waits.hpp"

using namespace proofline;
using namespace proofline::memory;
using namespace std::chrono_literals;
using memory::test::no_retry;
using memory::test::patient;
using memory::test::RecordingBackend;
using test_support::eventually;

namespace {

// Fills every buffer of a slot with a byte that names its holder, so two holders of one buffer show up.
void stamp(const PinnedSlot& slot, unsigned char mark) {
  for (std::size_t i = 0; i < slot.count(); ++i) std::memset(slot.data(i), mark, slot.size(i));
}

bool stamped(const PinnedSlot& slot, unsigned char mark) {
  for (std::size_t i = 0; i < slot.count(); ++i) {
    const auto bytes = slot.buffer(i);
    for (const std::byte b : bytes) {
      if (b != std::byte{mark}) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("memory/pool/a slot is leased all or nothing") {
  Budget budget("host", 256 * KiB, no_retry);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  const std::uint64_t sizes[] = {64 * KiB, 64 * KiB, 64 * KiB, 64 * KiB};
  pool.prewarm(4, 64 * KiB);
  std::optional<PinnedLease> single = pool.lease(64 * KiB);  // one of the four idle ones
  pool.mark_warm();

  // Three idle buffers and no budget left: the slot cannot be whole, so none of it is taken.
  CHECK_FALSE(pool.try_lease_slot(sizes));
  CHECK(pool.try_acquire_slot(sizes) == nullptr);
  PoolStats stats = pool.stats();
  CHECK(stats.bytes_leased == 64 * KiB);
  CHECK(stats.idle_buffers == 3);
  CHECK(budget.used() == 256 * KiB);

  // A blocking lease sets the three idle buffers aside (its own evictions leave them alone) and completes
  // when the single lease comes back: four buffers, none of them pinned for it.
  auto waiter = std::async(std::launch::async, [&] { return pool.lease_slot(sizes, patient()); });
  REQUIRE(eventually([&] { return pool.stats().waiting == 1 && budget.stats().waiting == 1; }));
  REQUIRE(eventually([&] { return budget.stats().evictor_calls >= 1; }));
  CHECK(pool.stats().idle_buffers == 3);  // the pool's own evictor did not trim them
  CHECK(pool.stats().bytes_leased == 64 * KiB);
  single.reset();
  REQUIRE(waiter.wait_for(20s) == std::future_status::ready);
  SlotLease slot = waiter.get();
  CHECK(slot->count() == 4);
  stats = pool.stats();
  CHECK(stats.pin_calls_since_warm == 0);
  CHECK(stats.bytes_leased == 256 * KiB);
  std::set<std::byte*> distinct;
  for (std::size_t i = 0; i < slot->count(); ++i) distinct.insert(slot->data(i));
  CHECK(distinct.size() == 4);
}

TEST_CASE("memory/pool/buffers set aside by a waiting slot lease still go to a budget waiter ahead of it") {
  // The slot lease waits behind another budget waiter (FIFO). If the idle buffers it matched were held back
  // from that waiter's evictions, each would wait for the other for ever.
  Budget budget("host", 256 * KiB, no_retry);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  std::optional<PinnedLease> a = pool.lease(64 * KiB);
  std::optional<PinnedLease> b = pool.lease(64 * KiB);
  std::optional<Reservation> held = budget.reserve(128 * KiB);

  auto other = std::async(std::launch::async, [&] { return budget.reserve(128 * KiB, patient()); });
  REQUIRE(eventually([&] { return budget.stats().waiting == 1; }));
  auto slot = std::async(std::launch::async, [&] {
    return pool.lease_slot({64 * KiB, 64 * KiB, 64 * KiB}, patient());
  });
  REQUIRE(eventually([&] { return pool.stats().waiting == 1 && budget.stats().waiting == 2; }));

  a.reset();
  b.reset();
  REQUIRE(other.wait_for(20s) == std::future_status::ready);
  std::optional<Reservation> got = other.get();
  CHECK(got->bytes() == 128 * KiB);
  CHECK(pool.stats().trimmed_buffers == 2);
  CHECK(slot.wait_for(10ms) == std::future_status::timeout);

  got.reset();
  held.reset();
  REQUIRE(slot.wait_for(20s) == std::future_status::ready);
  CHECK(slot.get()->count() == 3);
  CHECK(backend.max_live() <= budget.total());
}

TEST_CASE("memory/pool/two competing slot leases do not deadlock") {
  // Room for one and a half slots: if each could take part of a slot and wait for the rest, the two would
  // block each other for ever.
  Budget budget("host", 384 * KiB);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  const std::uint64_t sizes[] = {64 * KiB, 64 * KiB, 64 * KiB, 64 * KiB};
  constexpr int rounds = 200;
  std::atomic<int> overlaps{0};
  const auto worker = [&](unsigned char mark) {
    int done = 0;
    for (int i = 0; i < rounds; ++i) {
      SlotLease slot = pool.lease_slot(sizes, ReserveOptions{.deadline = Clock::now() + 60s});
      stamp(*slot, mark);
      std::this_thread::yield();
      if (!stamped(*slot, mark)) ++overlaps;
      ++done;
    }
    return done;
  };
  auto first = std::async(std::launch::async, worker, static_cast<unsigned char>(1));
  auto second = std::async(std::launch::async, worker, static_cast<unsigned char>(2));
  REQUIRE(first.wait_for(120s) == std::future_status::ready);
  REQUIRE(second.wait_for(120s) == std::future_status::ready);
  CHECK(first.get() == rounds);
  CHECK(second.get() == rounds);
  CHECK(overlaps.load() == 0);
  CHECK(backend.max_live() <= budget.total());
  CHECK(pool.stats().bytes_leased == 0);
}

TEST_CASE("memory/pool/slots are acquired and released by pointer for the flow graph") {
  Budget budget("host", MiB);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  PinnedSlot* slot = pool.acquire_slot({40 * KiB, 8 * KiB, 8 * KiB});
  REQUIRE(slot != nullptr);
  CHECK(slot->count() == 3);
  CHECK(slot->size(0) == 40 * KiB);
  CHECK(slot->as<std::uint64_t>(1).size() == 8 * KiB / 8);
  CHECK(slot->capacity(2) >= 8 * KiB);
  CHECK_FALSE(slot->page_locked());  // the test backend does not mlock
  stamp(*slot, 7);
  CHECK(pool.stats().slots_out == 1);

  PinnedSlot* other = pool.try_acquire_slot({8 * KiB});
  REQUIRE(other != nullptr);
  CHECK(other->id() != slot->id());
  pool.release_slot(other);

  pool.release_slot(slot);
  CHECK(pool.stats().slots_out == 0);
  CHECK(pool.stats().bytes_leased == 0);
  try {
    pool.release_slot(slot);
    FAIL("a slot was released twice");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_argument);
  }

  // SlotLease hands its slot on as a plain pointer; the taker releases it by pointer.
  SlotLease lease = pool.lease_slot({16 * KiB});
  PinnedSlot* token = lease.release();
  CHECK_FALSE(lease);
  CHECK(pool.stats().slots_out == 1);
  pool.release_slot(token);
  {
    SlotLease scoped = pool.lease_slot({16 * KiB});
    CHECK(pool.stats().slots_out == 1);
  }
  CHECK(pool.stats().slots_out == 0);
}

TEST_CASE("memory/pool/slots_that_fit counts what the pool holds plus what the budget has free") {
  Budget budget("host", MiB);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  CHECK(pool.slots_that_fit({64 * KiB, 64 * KiB}) == 8);
  CHECK(pool.slots_that_fit({64 * KiB, 64 * KiB - 100}) == 8);  // rounded to whole pages
  pool.prewarm_slots(2, std::vector<std::uint64_t>{64 * KiB, 64 * KiB});
  CHECK(pool.slots_that_fit({64 * KiB, 64 * KiB}) == 8);  // its own buffers count
  Reservation resident = budget.reserve(300 * KiB);
  CHECK(pool.slots_that_fit({64 * KiB, 64 * KiB}) == (MiB - 300 * KiB) / (128 * KiB));
  CHECK(pool.slots_that_fit({MiB}) == 0);
}
