#include <doctest/doctest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include <proofline/memory/budget.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/scope_guard.hpp>

#include "memory/helpers.hpp"
#include "support/errors.hpp"
#include "support/waits.hpp"

using namespace proofline;
using namespace proofline::memory;
using namespace std::chrono_literals;
using memory::test::no_retry;
using test_support::error_code;
using test_support::eventually;
using test_support::Gate;

TEST_CASE("memory/budget/try_reserve grants within the total and refuses beyond it") {
  Budget budget("test", 100);
  auto a = budget.try_reserve(60);
  REQUIRE(a);
  CHECK(a->bytes() == 60);
  CHECK(budget.used() == 60);
  CHECK_FALSE(budget.try_reserve(41));
  auto b = budget.try_reserve(40);
  REQUIRE(b);
  CHECK(budget.available() == 0);
  a.reset();
  CHECK(budget.used() == 40);
  const BudgetStats stats = budget.stats();
  CHECK(stats.high_water == 100);
  CHECK(stats.grants == 2);
  CHECK(stats.waits == 0);
}

TEST_CASE("memory/budget/a request larger than the whole budget fails at once") {
  Budget budget("host", 100);
  auto hold = budget.reserve(10);
  const auto start = Clock::now();
  try {
    (void)budget.reserve(101);
    FAIL("a request beyond the total was granted");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::out_of_budget);
    CHECK(std::string(e.what()).find("exceeds the whole budget") != std::string::npos);
    CHECK(std::string(e.what()).find("'host'") != std::string::npos);
  }
  CHECK(Clock::now() - start < 5s);  // it did not wait for anything
  CHECK(error_code([&] { (void)budget.try_reserve(101); }) == Errc::out_of_budget);
  CHECK(budget.stats().refusals == 2);
  CHECK(budget.stats().waiting == 0);
  CHECK(budget.used() == 10);
}

TEST_CASE("memory/budget/reservations give back what they hold in parts and when destroyed") {
  Budget budget("test", 1000);
  {
    Reservation r = budget.reserve(600);
    r.release(100);
    CHECK(r.bytes() == 500);
    CHECK(budget.used() == 500);
    CHECK(error_code([&] { r.release(501); }) == Errc::invalid_argument);
    CHECK(budget.used() == 500);

    Reservation part = r.split(200);
    CHECK(part.bytes() == 200);
    CHECK(r.bytes() == 300);
    CHECK(budget.used() == 500);  // splitting moves bytes, it neither takes nor gives
    CHECK(error_code([&] { (void)r.split(301); }) == Errc::invalid_argument);

    r.merge(std::move(part));
    CHECK(r.bytes() == 500);
    CHECK(part.empty());

    Reservation moved = std::move(r);
    CHECK(r.empty());
    CHECK(moved.bytes() == 500);
    CHECK(budget.used() == 500);

    Reservation other = budget.reserve(100);
    other = std::move(moved);  // the 100 it held go back first
    CHECK(budget.used() == 500);

    CHECK(other.try_grow(400));
    CHECK(budget.used() == 900);
    CHECK_FALSE(other.try_grow(101));
    CHECK(other.bytes() == 900);
    other.release(0);
    other.reset();
    CHECK(budget.used() == 0);
    other.grow(10);  // an emptied reservation still knows its budget
    CHECK(budget.used() == 10);
  }
  CHECK(budget.used() == 0);

  Budget second("second", 100);
  Reservation mine = budget.reserve(1);
  Reservation theirs = second.reserve(1);
  CHECK(error_code([&] { mine.merge(std::move(theirs)); }) == Errc::invalid_argument);
  CHECK(theirs.bytes() == 1);
  Reservation none;
  CHECK(error_code([&] { none.grow(1); }) == Errc::invalid_argument);
}

TEST_CASE("memory/budget/a blocking reserve is woken by a release") {
  Budget budget("test", 100);
  std::optional<Reservation> hold = budget.reserve(80);
  auto waiter = std::async(std::launch::async, [&] { return budget.reserve(50, Clock::now() + 60s); });
  REQUIRE(eventually([&] { return budget.stats().waiting == 1; }));
  CHECK(waiter.wait_for(20ms) == std::future_status::timeout);
  CHECK(budget.reserve(0, Clock::now() + 1s).bytes() == 0);  // nothing to wait for, queue or not
  CHECK(budget.try_reserve(0));
  hold.reset();
  REQUIRE(waiter.wait_for(20s) == std::future_status::ready);
  Reservation got = waiter.get();
  CHECK(got.bytes() == 50);
  CHECK(budget.used() == 50);
  const BudgetStats stats = budget.stats();
  CHECK(stats.waits == 1);
  CHECK(stats.waiting == 0);
  CHECK(stats.wait_seconds > 0);
}

TEST_CASE("memory/budget/a blocking reserve times out at its deadline") {
  Budget budget("test", 100);
  Reservation hold = budget.reserve(100);
  const auto deadline = Clock::now() + 30ms;
  CHECK(error_code([&] { (void)budget.reserve(10, deadline); }) == Errc::timeout);
  CHECK(Clock::now() >= deadline);
  CHECK(budget.stats().timeouts == 1);
  CHECK(budget.stats().waiting == 0);
  hold.reset();
  CHECK(budget.try_reserve(100));  // the queue is clean: nobody is left ahead
}

TEST_CASE("memory/budget/a blocking reserve is cancelled by its stop token") {
  Budget budget("test", 100);
  Reservation hold = budget.reserve(100);
  std::stop_source stop;
  auto waiter = std::async(std::launch::async,
                           [&] { return error_code([&] { (void)budget.reserve(10, stop.get_token()); }); });
  REQUIRE(eventually([&] { return budget.stats().waiting == 1; }));
  stop.request_stop();
  REQUIRE(waiter.wait_for(20s) == std::future_status::ready);
  CHECK(waiter.get() == Errc::cancelled);
  CHECK(budget.stats().cancellations == 1);
  CHECK(budget.stats().waiting == 0);
  CHECK(budget.used() == 100);

  // Already stopped: fails as soon as it would have to wait, and only then.
  CHECK(error_code([&] { (void)budget.reserve(1, stop.get_token()); }) == Errc::cancelled);
  hold.release(1);
  CHECK(budget.reserve(1, stop.get_token()).bytes() == 1);
}

TEST_CASE("memory/budget/fifo: a large waiter is not starved by a stream of small requests") {
  Budget budget("test", 100);
  std::optional<Reservation> hold = budget.reserve(60);
  auto big = std::async(std::launch::async, [&] { return budget.reserve(80, Clock::now() + 60s); });
  REQUIRE(eventually([&] { return budget.stats().waiting == 1; }));

  // 40 bytes are free, but they belong to the queued request: neither try_reserve nor a blocking reserve
  // may jump ahead of it, however many small requests come.
  std::atomic<int> small_grants{0};
  std::atomic<bool> stop_small{false};
  std::vector<std::thread> small;
  for (int t = 0; t < 4; ++t) {
    small.emplace_back([&] {
      while (!stop_small.load()) {
        if (auto r = budget.try_reserve(10)) ++small_grants;
        try {
          Reservation r = budget.reserve(10, Clock::now() + 2ms);
          ++small_grants;
        } catch (const Error& e) {
          CHECK(e.code() == Errc::timeout);
        }
      }
    });
  }
  std::this_thread::sleep_for(100ms);
  CHECK(small_grants.load() == 0);
  CHECK(big.wait_for(0s) == std::future_status::timeout);

  hold.reset();
  REQUIRE(big.wait_for(20s) == std::future_status::ready);
  Reservation got = big.get();
  CHECK(got.bytes() == 80);
  stop_small.store(true);
  for (auto& t : small) t.join();
  CHECK(budget.used() == 80);
}

TEST_CASE("memory/budget/waiters are served in arrival order even when a later one would fit") {
  Budget budget("test", 100);
  std::optional<Reservation> hold = budget.reserve(60);
  auto first = std::async(std::launch::async, [&] { return budget.reserve(80, Clock::now() + 60s); });
  REQUIRE(eventually([&] { return budget.stats().waiting == 1; }));
  auto second = std::async(std::launch::async, [&] { return budget.reserve(30, Clock::now() + 60s); });
  REQUIRE(eventually([&] { return budget.stats().waiting == 2; }));
  CHECK(second.wait_for(20ms) == std::future_status::timeout);  // 40 free, but the 80 came first

  hold.reset();
  REQUIRE(first.wait_for(20s) == std::future_status::ready);
  std::optional<Reservation> got_first = first.get();
  CHECK(second.wait_for(20ms) == std::future_status::timeout);  // 80 + 30 > 100
  got_first.reset();
  REQUIRE(second.wait_for(20s) == std::future_status::ready);
  CHECK(second.get().bytes() == 30);
}

TEST_CASE("memory/budget/a cancelled head lets the smaller waiters behind it through") {
  Budget budget("test", 100);
  Reservation hold = budget.reserve(60);
  std::stop_source stop;
  auto big = std::async(std::launch::async,
                        [&] { return error_code([&] { (void)budget.reserve(80, stop.get_token()); }); });
  REQUIRE(eventually([&] { return budget.stats().waiting == 1; }));
  auto small = std::async(std::launch::async, [&] { return budget.reserve(30, Clock::now() + 60s); });
  REQUIRE(eventually([&] { return budget.stats().waiting == 2; }));
  stop.request_stop();
  REQUIRE(big.wait_for(20s) == std::future_status::ready);
  CHECK(big.get() == Errc::cancelled);
  REQUIRE(small.wait_for(20s) == std::future_status::ready);
  CHECK(small.get().bytes() == 30);
}

TEST_CASE("memory/budget/evictors are asked in priority order before a reserve waits") {
  Budget budget("test", 100, no_retry);
  std::mutex log_mutex;
  std::vector<std::string> log;
  std::optional<Reservation> early_held = budget.reserve(30);
  std::optional<Reservation> late_held = budget.reserve(30);
  Reservation filler = budget.reserve(40);
  const auto evictor = [&](const char* name, std::optional<Reservation>& held) {
    return [&, name](std::uint64_t) -> std::uint64_t {
      std::lock_guard lock(log_mutex);
      log.emplace_back(name);
      if (!held) return 0;
      const std::uint64_t freed = held->bytes();
      held.reset();
      return freed;
    };
  };
  // Registered out of order: the priority decides, not the registration.
  EvictorRegistration late = budget.add_evictor("late", 10, evictor("late", late_held));
  EvictorRegistration early = budget.add_evictor("early", 0, evictor("early", early_held));

  Reservation first = budget.reserve(25);  // the early evictor's 30 are enough
  CHECK(log == std::vector<std::string>{"early"});
  Reservation second = budget.reserve(30);  // 5 free: the early one has nothing left, the late one frees 30
  CHECK(log == std::vector<std::string>{"early", "early", "late"});
  CHECK(budget.used() == 40 + 25 + 30);
  const BudgetStats stats = budget.stats();
  CHECK(stats.evictor_calls == 3);
  CHECK(stats.evictions == 2);
  CHECK(stats.bytes_evicted == 60);
}

TEST_CASE("memory/budget/what an evictor frees goes to the head waiter, not to a later request") {
  Budget budget("test", 100, no_retry);
  std::optional<Reservation> evictable = budget.reserve(100);
  std::optional<Reservation> stolen;
  std::atomic<bool> later_got_it{false};
  std::atomic<bool> evicted{false};
  EvictorRegistration registration =
      budget.add_evictor("racy", 0, [&](std::uint64_t wanted) -> std::uint64_t {
        if (evicted.exchange(true)) return 0;  // one eviction only; the later request asks too
        evictable->release(wanted);
        // A request arriving right after the release, while the head waiter has not run yet: it must not get
        // the bytes the eviction was for.
        stolen = budget.try_reserve(wanted);
        std::thread later([&] {
          try {
            (void)budget.reserve(wanted, Clock::now() + 20ms);
            later_got_it = true;
          } catch (const Error&) {
          }
        });
        later.join();
        return wanted;
      });
  Reservation head = budget.reserve(50);
  CHECK(head.bytes() == 50);
  CHECK_FALSE(stolen.has_value());
  CHECK_FALSE(later_got_it.load());
  CHECK(budget.used() == 100);
}

TEST_CASE("memory/budget/the head waiter asks the evictors again when told something became evictable") {
  Budget budget("test", 100, no_retry);
  std::optional<Reservation> idle = budget.reserve(100);
  std::atomic<bool> may_evict{false};
  std::atomic<int> calls{0};
  EvictorRegistration registration = budget.add_evictor("gated", 0, [&](std::uint64_t) -> std::uint64_t {
    ++calls;
    if (!may_evict.load()) return 0;
    const std::uint64_t freed = idle->bytes();
    idle.reset();
    return freed;
  });
  auto waiter = std::async(std::launch::async, [&] { return budget.reserve(60, Clock::now() + 60s); });
  REQUIRE(eventually([&] { return calls.load() == 1 && budget.stats().waiting == 1; }));
  CHECK(waiter.wait_for(20ms) == std::future_status::timeout);
  CHECK(calls.load() == 1);  // no news, no retry (the retry timer is an hour)
  may_evict = true;
  budget.notify_evictable();
  REQUIRE(waiter.wait_for(20s) == std::future_status::ready);
  CHECK(waiter.get().bytes() == 60);
  CHECK(calls.load() == 2);
}

TEST_CASE("memory/budget/the head waiter retries the evictors on its timer") {
  // Some memory becomes evictable only by time passing (resident entries reaching their idle timeout),
  // with nobody to call notify_evictable().
  Budget budget("test", 100, BudgetOptions{.evict_retry = 5ms});
  std::optional<Reservation> idle = budget.reserve(100);
  std::atomic<int> calls{0};
  EvictorRegistration registration = budget.add_evictor("timed", 0, [&](std::uint64_t) -> std::uint64_t {
    if (++calls < 3) return 0;
    idle.reset();
    return 100;
  });
  CHECK(budget.reserve(100, Clock::now() + 20s).bytes() == 100);
  CHECK(calls.load() == 3);
}

TEST_CASE("memory/budget/removing an evictor waits for its call in flight") {
  Budget budget("test", 100, no_retry);
  Reservation hold = budget.reserve(100);
  Gate entered;
  std::atomic<bool> may_return{false};
  std::atomic<bool> returned{false};
  auto registration = std::make_unique<EvictorRegistration>(budget.add_evictor("slow", 0, [&](std::uint64_t) {
    entered.open();
    while (!may_return.load()) std::this_thread::sleep_for(1ms);
    returned = true;
    return std::uint64_t{0};
  }));
  auto waiter = std::async(std::launch::async, [&] {
    return error_code([&] { (void)budget.reserve(10, Clock::now() + 300ms); });
  });
  entered.wait();
  auto remover = std::async(std::launch::async, [&] {
    registration.reset();
    return returned.load();  // must already be true: unregistering waited for the call
  });
  const ScopeGuard release([&] { may_return = true; });
  CHECK(remover.wait_for(30ms) == std::future_status::timeout);
  may_return = true;
  REQUIRE(remover.wait_for(20s) == std::future_status::ready);
  CHECK(remover.get());
  CHECK(waiter.get() == Errc::timeout);
}

TEST_CASE("memory/budget/an evictor that throws does not break the budget") {
  Budget budget("test", 100, no_retry);
  std::optional<Reservation> idle = budget.reserve(100);
  EvictorRegistration bad = budget.add_evictor(
      "bad", 0, [](std::uint64_t) -> std::uint64_t { throw std::runtime_error("evictor bug"); });
  EvictorRegistration good = budget.add_evictor("good", 1, [&](std::uint64_t) -> std::uint64_t {
    idle.reset();
    return 100;
  });
  CHECK(budget.reserve(70).bytes() == 70);
  CHECK(budget.stats().evictor_calls == 2);
}
