// The synthesis ramp's bookkeeping on its own, with the flow graph's part played by a loop: completions
// double the permits while a burst waits and retire them once it is gone, a job about to take an idle permit
// makes no new one, and the host's load grants one only when jobs would otherwise wait and the host was idle.
#include <doctest/doctest.h>

#include <proofline/graph/detail/synthesis_ramp.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

using proofline::graph::detail::process_cpu_time;
using proofline::graph::detail::SynthesisRamp;
using namespace std::chrono_literals;

namespace {

/// What the graph does around the ramp: `idle` permits in the buffer, jobs started while both a permit and
/// a waiting job are there.
struct Permits {
  SynthesisRamp& ramp;
  std::size_t idle = ramp.floor();
  std::size_t running = 0;
  std::size_t waiting = 0;

  void arrive(std::size_t jobs) {
    for (std::size_t i = 0; i < jobs; ++i) ramp.arrive();
    waiting += jobs;
  }
  void start_what_can() {
    for (; idle > 0 && waiting > 0; --idle, --waiting, ++running) ramp.start();
  }
  /// One synthesis finishes: its permits back, or idle ones retired as Flow::retire_idle_permits does.
  void finish_one() {
    REQUIRE(running > 0);
    --running;
    const std::size_t back = ramp.finish();
    idle += back;
    if (back == 0)
      while (idle > 0 && ramp.retire_idle()) --idle;
  }
};

}  // namespace

TEST_CASE("pipeline/ramp/completions double the permits while a burst waits, then retire them to the floor") {
  SynthesisRamp ramp(1, 4, 8);
  Permits permits{ramp};
  permits.arrive(12);
  std::vector<std::size_t> at_once;  // syntheses running after each round of completions
  while (permits.waiting > 0 || permits.running > 0) {
    permits.start_what_can();
    at_once.push_back(permits.running);
    for (std::size_t n = permits.running; n > 0; --n) permits.finish_one();
  }
  // Rounds: 1, then 2, then 4 (the ceiling) while jobs wait, then what is left.
  REQUIRE(at_once.size() >= 4);
  CHECK(at_once[0] == 1);
  CHECK(at_once[1] == 2);
  CHECK(at_once[2] == 4);
  CHECK(*std::max_element(at_once.begin(), at_once.end()) == 4);
  CHECK(ramp.high_water() == 4);
  // The burst gone, the last completions retired their permits: one again, and it is idle.
  CHECK(ramp.live() == 1);
  CHECK(permits.idle == 1);
  CHECK_FALSE(ramp.jobs_wait());
}

TEST_CASE("pipeline/ramp/a job about to take an idle permit makes no new one") {
  SynthesisRamp ramp(2, 4, 8);
  Permits permits{ramp};
  permits.arrive(1);
  permits.start_what_can();  // one running, one permit idle
  // A second job has arrived (leased its slot) but not yet taken the idle permit when the first finishes.
  permits.arrive(1);
  CHECK(ramp.jobs_wait());
  CHECK(ramp.finish() == 1);
  CHECK(ramp.live() == 2);
  CHECK(ramp.high_water() == 2);
}

TEST_CASE("pipeline/ramp/the host's load grants a permit only when jobs wait and the host stayed idle") {
  SynthesisRamp ramp(1, 3, 4);
  Permits permits{ramp};
  const auto start = SynthesisRamp::Clock::now();
  // Nobody waits: no grant however idle the host.
  CHECK_FALSE(ramp.grow_on_tick(start + 1s, process_cpu_time()));
  permits.arrive(3);
  permits.start_what_can();  // one running, two waiting
  // Too soon after the synthesis started to judge the host's load.
  CHECK_FALSE(
      ramp.grow_on_tick(SynthesisRamp::Clock::now() + SynthesisRamp::kWindow / 2, process_cpu_time()));
  // Busy: far more CPU time than half of the four cores over the second.
  CHECK_FALSE(ramp.grow_on_tick(SynthesisRamp::Clock::now() + 1s, process_cpu_time() + 10s));
  // Idle: one more permit, and the window starts again from the grant.
  const auto later = SynthesisRamp::Clock::now() + 1s;
  CHECK(ramp.grow_on_tick(later, process_cpu_time()));
  CHECK(ramp.live() == 2);
  CHECK_FALSE(ramp.grow_on_tick(later + SynthesisRamp::kWindow / 2, process_cpu_time()));
  // The granted permit not yet taken: the two waiting jobs are one more than the idle permits.
  CHECK(ramp.grow_on_tick(later + 1s, process_cpu_time()));
  CHECK(ramp.live() == 3);
  // At the ceiling.
  CHECK_FALSE(ramp.grow_on_tick(later + 2s, process_cpu_time()));
  CHECK(ramp.high_water() == 3);
}

TEST_CASE("pipeline/ramp/an idle permit does not count as short") {
  SynthesisRamp ramp(2, 4, 4);
  Permits permits{ramp};
  permits.arrive(1);  // one job on its way, two permits idle
  CHECK(ramp.jobs_wait());
  CHECK_FALSE(ramp.grow_on_tick(SynthesisRamp::Clock::now() + 1s, process_cpu_time()));
  CHECK(ramp.live() == 2);
}

TEST_CASE("pipeline/ramp/the floor is at least one permit and at most the ceiling") {
  CHECK(SynthesisRamp(0, 4, 8).floor() == 1);
  CHECK(SynthesisRamp(8, 4, 8).floor() == 4);
  CHECK(SynthesisRamp(3, 0, 8).floor() == 1);
  CHECK(SynthesisRamp(2, 6, 8).live() == 2);
}
