#include <doctest/doctest.h>

#include <chrono>
#include <thread>
#include <vector>

#include <proofline/util/occupancy_clock.hpp>

using proofline::util::OccupancyClock;
using namespace std::chrono_literals;

TEST_CASE("util/occupancy_clock/counts the union of overlapping holds, not their sum") {
  OccupancyClock clock;
  const OccupancyClock::Clock::time_point t0{};
  clock.enter(t0 + 1s);
  clock.enter(t0 + 2s);  // overlaps the first
  clock.leave(t0 + 3s);
  CHECK(clock.holders() == 1);
  CHECK(clock.seconds(t0 + 4s) == doctest::Approx(3.0));  // open since 1 s
  clock.leave(t0 + 5s);
  CHECK(clock.holders() == 0);
  CHECK(clock.seconds(t0 + 9s) == doctest::Approx(4.0));  // idle from 5 s on
  clock.enter(t0 + 10s);
  clock.leave(t0 + 10500ms);
  CHECK(clock.seconds(t0 + 20s) == doctest::Approx(4.5));
}

TEST_CASE("util/occupancy_clock/an unmatched leave and a clock read before the interval change nothing") {
  OccupancyClock clock;
  const OccupancyClock::Clock::time_point t0{};
  clock.leave(t0 + 1s);
  CHECK(clock.holders() == 0);
  CHECK(clock.seconds(t0 + 2s) == 0.0);
  clock.enter(t0 + 5s);
  CHECK(clock.seconds(t0 + 4s) == 0.0);  // a reader's `now` taken before the enter
  clock.leave(t0 + 6s);
  CHECK(clock.seconds(t0 + 6s) == doctest::Approx(1.0));
}

TEST_CASE("util/occupancy_clock/holders from many threads balance out") {
  OccupancyClock clock;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        clock.enter();
        clock.leave();
      }
    });
  for (std::thread& thread : threads) thread.join();
  CHECK(clock.holders() == 0);
  const double total = clock.seconds();
  std::this_thread::sleep_for(10ms);
  CHECK(clock.seconds() == total);  // nothing open: idle time is not counted
}
