#include <doctest/doctest.h>

#include <atomic>
#include <future>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include <proofline/memory/budget.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/memory/residency.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/scope_guard.hpp>
#include <proofline/util/size.hpp>

#include "memory/helpers.hpp"
#include "support/errors.hpp"
#include "support/waits.hpp"

using namespace proofline;
using namespace proofline::memory;
using namespace std::chrono_literals;
using memory::test::no_retry;
using memory::test::RecordingBackend;
using test_support::error_code;
using test_support::eventually;
using test_support::Gate;

namespace {

// A loaded region: `bytes` of heap filled with a byte derived from the name, so a handle can prove it
// sees what was loaded under its name.
struct Region {
  std::string name;
  std::vector<unsigned char> data;
};

unsigned char mark_of(const std::string& name) {
  return static_cast<unsigned char>(name.size() * 31 + name.back());
}

Loader loader_of(std::uint64_t bytes, std::atomic<int>* calls = nullptr) {
  return [bytes, calls](const std::string& name) {
    if (calls != nullptr) ++*calls;
    auto region = std::make_shared<Region>();
    region->name = name;
    region->data.assign(static_cast<std::size_t>(bytes), mark_of(name));
    return LoadedRegion{region, bytes};
  };
}

}  // namespace

TEST_CASE("memory/residency/concurrent requests for one name load it once") {
  Budget budget("host", MiB);
  Residency residency(budget);
  std::atomic<int> calls{0};
  Gate go;
  const Loader slow = [&](const std::string& name) {
    go.wait();  // every requester is in before the load can finish
    return loader_of(100 * KiB, &calls)(name);
  };
  std::vector<std::future<ResidentHandle>> requests;
  for (int i = 0; i < 8; ++i) {
    requests.push_back(
        std::async(std::launch::async, [&] { return residency.acquire("srs", 100 * KiB, slow); }));
  }
  const ScopeGuard release([&] { go.open(); });
  REQUIRE(eventually([&] { return residency.stats().waits == 7; }));
  go.open();
  std::vector<ResidentHandle> handles;
  for (auto& request : requests) handles.push_back(request.get());
  CHECK(calls.load() == 1);
  for (const auto& handle : handles) {
    CHECK(handle.get() == handles.front().get());
    CHECK(handle.as<Region>()->name == "srs");
    CHECK(handle.bytes() == 100 * KiB);
  }
  const ResidencyStats stats = residency.stats();
  CHECK(stats.loads == 1);
  CHECK(stats.entries == 1);
  CHECK(stats.in_use == 1);
  CHECK(budget.used() == 100 * KiB);
  CHECK(residency.acquire("srs", 100 * KiB, loader_of(100 * KiB, &calls)).get() == handles.front().get());
  CHECK(residency.stats().hits == 1);
  CHECK(calls.load() == 1);
}

TEST_CASE("memory/residency/loaders run without a global lock") {
  Budget budget("host", MiB);
  Residency residency(budget);
  std::promise<void> b_loaded;
  auto b_done = b_loaded.get_future();
  // A's loader waits until B has loaded on another thread: if loading held a residency-wide lock, B
  // could not load and A would time out.
  const Loader waits_for_b = [&](const std::string& name) {
    if (b_done.wait_for(20s) != std::future_status::ready) throw std::runtime_error("B never loaded");
    return loader_of(10 * KiB)(name);
  };
  auto a = std::async(std::launch::async, [&] { return residency.acquire("a", 10 * KiB, waits_for_b); });
  REQUIRE(eventually([&] { return residency.stats().loads == 1; }));
  ResidentHandle b = residency.acquire("b", 10 * KiB, loader_of(10 * KiB));
  CHECK(residency.contains("b"));
  CHECK_FALSE(residency.contains("a"));  // still loading
  b_loaded.set_value();
  CHECK(a.get().as<Region>()->name == "a");
}

TEST_CASE("memory/residency/an entry in use is never evicted") {
  Budget budget("host", 300 * KiB, no_retry);
  Residency residency(budget, ResidencyOptions{.idle_timeout = 0s});
  std::optional<ResidentHandle> a = residency.acquire("a", 200 * KiB, loader_of(200 * KiB));
  CHECK(error_code([&] {
          (void)residency.acquire("b", 200 * KiB, loader_of(200 * KiB),
                                  ReserveOptions{.deadline = Clock::now() + 50ms});
        }) == Errc::timeout);
  CHECK(residency.contains("a"));
  CHECK(a->as<Region>()->data.back() == mark_of("a"));
  CHECK_FALSE(residency.evict("a"));
  CHECK(residency.evict_idle(~0ull, 0s) == 0);

  // A copy of the handle keeps it in use too.
  ResidentHandle copy = *a;
  a.reset();
  CHECK(residency.stats().in_use == 1);
  CHECK_FALSE(residency.evict("a"));
  copy.reset();
  ResidentHandle b =
      residency.acquire("b", 200 * KiB, loader_of(200 * KiB), ReserveOptions{.deadline = Clock::now() + 20s});
  CHECK_FALSE(residency.contains("a"));
  CHECK(residency.stats().evictions == 1);
  CHECK(budget.used() == 200 * KiB);
}

TEST_CASE("memory/residency/evict with a deadline waits for the entry's users to let go") {
  Budget budget("host", 300 * KiB, no_retry);
  Residency residency(budget, ResidencyOptions{.idle_timeout = 5min});
  std::optional<ResidentHandle> a = residency.acquire("a", 100 * KiB, loader_of(100 * KiB));
  // Still in use at the deadline: kept, after waiting for it.
  const auto begin = Clock::now();
  CHECK_FALSE(residency.evict("a", begin + 30ms));
  CHECK(Clock::now() - begin >= 30ms);
  CHECK(residency.contains("a"));
  // Its user lets go while the eviction waits: evicted then, long before the deadline.
  auto release = std::async(std::launch::async, [&] {
    std::this_thread::sleep_for(50ms);
    a.reset();
  });
  CHECK(residency.evict("a", Clock::now() + 20s));
  release.get();
  CHECK_FALSE(residency.contains("a"));
  CHECK(budget.used() == 0);
  CHECK(residency.stats().evictions == 1);
  // Nothing of that name: false at once.
  const auto absent = Clock::now();
  CHECK_FALSE(residency.evict("a", absent + 20s));
  CHECK(Clock::now() - absent < 10s);
}

TEST_CASE("memory/residency/idle entries are evicted least recently used first, and only after the timeout") {
  Budget budget("host", 300 * KiB, no_retry);
  {
    Residency residency(budget, ResidencyOptions{.idle_timeout = 0s});
    std::optional<ResidentHandle> a = residency.acquire("a", 100 * KiB, loader_of(100 * KiB));
    std::optional<ResidentHandle> b = residency.acquire("b", 100 * KiB, loader_of(100 * KiB));
    std::optional<ResidentHandle> c = residency.acquire("c", 100 * KiB, loader_of(100 * KiB));
    // Released in the order b, a, c: b is the least recently used.
    b.reset();
    std::this_thread::sleep_for(2ms);
    a.reset();
    std::this_thread::sleep_for(2ms);
    c.reset();
    ResidentHandle d = residency.acquire("d", 100 * KiB, loader_of(100 * KiB));
    CHECK_FALSE(residency.contains("b"));
    CHECK(residency.contains("a"));
    CHECK(residency.contains("c"));
    ResidentHandle e = residency.acquire("e", 100 * KiB, loader_of(100 * KiB));
    CHECK_FALSE(residency.contains("a"));
    CHECK(residency.contains("c"));
    CHECK(residency.stats().evictions == 2);
  }
  CHECK(budget.used() == 0);  // the residency dropped its idle entries when it went

  Residency patient(budget, ResidencyOptions{.idle_timeout = std::chrono::hours(1)});
  (void)patient.acquire("a", 200 * KiB, loader_of(200 * KiB));  // idle at once, but not for an hour
  CHECK(error_code([&] {
          (void)patient.acquire("b", 200 * KiB, loader_of(200 * KiB),
                                ReserveOptions{.deadline = Clock::now() + 50ms});
        }) == Errc::timeout);
  CHECK(patient.contains("a"));
  CHECK(patient.evict_idle(1, 0s) == 200 * KiB);  // an explicit eviction may ignore the timeout
  CHECK_FALSE(patient.contains("a"));
}

TEST_CASE("memory/residency/a load trims idle pool buffers before it evicts resident entries") {
  Budget budget("host", 400 * KiB, no_retry);
  RecordingBackend backend;
  PinnedPool pool(budget, backend);
  Residency residency(budget, ResidencyOptions{.idle_timeout = 0s});
  pool.prewarm(2, 64 * KiB);
  (void)residency.acquire("a", 100 * KiB, loader_of(100 * KiB));  // idle, evictable

  // 172 KiB free, 200 wanted: one idle pool buffer (64 KiB) is enough, the resident entry stays.
  ResidentHandle b = residency.acquire("b", 200 * KiB, loader_of(200 * KiB));
  CHECK(pool.stats().trimmed_buffers == 1);
  CHECK(residency.contains("a"));

  // 36 KiB free, 120 wanted: the last pool buffer goes first, and as that is not enough, the idle entry.
  ResidentHandle c = residency.acquire("c", 120 * KiB, loader_of(120 * KiB));
  CHECK(pool.stats().trimmed_buffers == 2);
  CHECK(pool.stats().buffers == 0);
  CHECK_FALSE(residency.contains("a"));
  CHECK(residency.contains("b"));
  CHECK(budget.used() == 320 * KiB);
}

TEST_CASE("memory/residency/a failed load reaches every waiter and the next acquire retries") {
  Budget budget("host", MiB);
  Residency residency(budget);
  Gate go;
  std::atomic<int> calls{0};
  const Loader broken = [&](const std::string&) -> LoadedRegion {
    ++calls;
    go.wait();
    throw Error(Errc::bad_input, "srs file truncated");
  };
  std::vector<std::future<std::string>> requests;
  for (int i = 0; i < 4; ++i) {
    requests.push_back(std::async(std::launch::async, [&] {
      try {
        (void)residency.acquire("srs", 100 * KiB, broken);
      } catch (const Error& e) {
        return std::string(to_string(e.code())) + ": " + e.what();
      }
      return std::string("loaded");
    }));
  }
  const ScopeGuard release([&] { go.open(); });
  REQUIRE(eventually([&] { return residency.stats().waits == 3; }));
  go.open();
  for (auto& request : requests) CHECK(request.get() == "bad input: srs file truncated");
  CHECK(calls.load() == 1);
  CHECK(budget.used() == 0);
  CHECK(residency.stats().load_failures == 1);
  CHECK_FALSE(residency.contains("srs"));
  ResidentHandle handle = residency.acquire("srs", 100 * KiB, loader_of(100 * KiB));
  CHECK(handle.as<Region>()->name == "srs");
  CHECK(residency.stats().loads == 2);
}

TEST_CASE("memory/residency/the charge follows what the loader reports") {
  Budget budget("host", MiB);
  Residency residency(budget);
  ResidentHandle small = residency.acquire("small", 100 * KiB, loader_of(60 * KiB));
  CHECK(small.bytes() == 60 * KiB);
  CHECK(budget.used() == 60 * KiB);
  ResidentHandle large = residency.acquire("large", 100 * KiB, loader_of(150 * KiB));
  CHECK(large.bytes() == 150 * KiB);
  CHECK(budget.used() == 210 * KiB);
  CHECK(residency.stats().bytes_resident == 210 * KiB);
  CHECK(error_code([&] {
          (void)residency.acquire("empty", KiB, [](const std::string&) { return LoadedRegion{}; });
        }) == Errc::invalid_argument);
  CHECK(budget.used() == 210 * KiB);
}

TEST_CASE("memory/residency/waiting for another thread's load honours the stop token") {
  Budget budget("host", MiB);
  Residency residency(budget);
  Gate go;
  auto loading = std::async(std::launch::async, [&] {
    return residency.acquire("srs", KiB, [&](const std::string& name) {
      go.wait();
      return loader_of(KiB)(name);
    });
  });
  const ScopeGuard release([&] { go.open(); });
  REQUIRE(eventually([&] { return residency.stats().loads == 1; }));
  std::stop_source stop;
  auto waiting = std::async(std::launch::async, [&] {
    return error_code([&] {
      (void)residency.acquire("srs", KiB, loader_of(KiB), ReserveOptions{.stop = stop.get_token()});
    });
  });
  REQUIRE(eventually([&] { return residency.stats().waits == 1; }));
  stop.request_stop();
  CHECK(waiting.get() == Errc::cancelled);
  go.open();
  CHECK(loading.get().as<Region>()->name == "srs");
}

TEST_CASE("memory/residency/handles keep their entry alive after the residency is gone") {
  Budget budget("host", MiB);
  std::optional<ResidentHandle> handle;
  {
    Residency residency(budget);
    handle = residency.acquire("pce", 64 * KiB, loader_of(64 * KiB));
    (void)residency.acquire("idle", 64 * KiB, loader_of(64 * KiB));
  }
  CHECK(budget.used() == 64 * KiB);  // the idle one went with the residency
  CHECK(handle->as<Region>()->data.front() == mark_of("pce"));
  handle.reset();
  CHECK(budget.used() == 0);
}
