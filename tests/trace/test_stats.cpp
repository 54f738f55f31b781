#include <doctest/doctest.h>

#include <random>
#include <vector>

#include <proofline/trace/stats.hpp>

#include "trace/trace_fixture.hpp"

using namespace proofline;
using namespace proofline::trace;

TEST_CASE("trace/stats/busy time is the union of spans") {
  Snapshot s;
  const StageId a = test::add_stage(s, "a");
  const StageId b = test::add_stage(s, "b");
  const TrackId t1 = test::add_track(s, "compute", TrackKind::cuda_stream, 0);
  const TrackId t2 = test::add_track(s, "copy", TrackKind::cuda_stream, 0);
  test::add_span(s, a, t1, 0, 10);
  test::add_span(s, a, t1, 5, 15);   // overlaps the first: counted once
  test::add_span(s, b, t1, 20, 30);  // disjoint
  test::add_span(s, b, t1, 22, 25);  // nested
  test::add_span(s, a, t2, 12, 22);  // other track
  s.sort();
  const Window all{0, 40};
  const std::vector<TrackId> one{t1}, both{t1, t2};
  CHECK(test::ns(busy_seconds(s, one, all)) == 25);
  CHECK(busy_fraction(s, one, all) == doctest::Approx(25.0 / 40));
  CHECK(test::ns(busy_seconds(s, both, all)) == 30);  // [0,30]
  CHECK(test::ns(busy_seconds(s, {}, all)) == 30);    // every track
  const std::vector<StageId> only_b{b};
  CHECK(test::ns(busy_seconds(s, one, all, only_b)) == 10);
  CHECK(test::ns(busy_seconds(s, one, Window{5, 25})) == 15);  // clipped: [5,15] + [20,25]
  CHECK(busy_seconds(s, one, Window{15, 20}) == 0);            // a gap
  CHECK(busy_fraction(s, one, Window{7, 7}) == 0);             // empty window

  Snapshot adjacent;
  const StageId x = test::add_stage(adjacent, "x");
  const TrackId t = test::add_track(adjacent, "t", TrackKind::cuda_stream, 0);
  test::add_span(adjacent, x, t, 0, 10);
  test::add_span(adjacent, x, t, 10, 20);
  test::add_span(adjacent, x, t, 20, 20);  // empty
  CHECK(test::ns(busy_seconds(adjacent, std::vector<TrackId>{t}, Window{0, 100})) == 20);
}

TEST_CASE("trace/stats/busy time agrees with counting nanoseconds on random spans") {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 200; ++trial) {
    Snapshot s;
    const StageId stage = test::add_stage(s, "s");
    const TrackId track = test::add_track(s, "t", TrackKind::cuda_stream, 0);
    std::vector<bool> busy(300, false);
    const Window window{static_cast<std::int64_t>(rng() % 100), 150 + static_cast<std::int64_t>(rng() % 150)};
    const int spans = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < spans; ++i) {
      const std::int64_t b = rng() % 280;
      const std::int64_t e = b + rng() % 40;
      test::add_span(s, stage, track, b, e);
      for (std::int64_t t = b; t < e && t < 300; ++t) busy[static_cast<std::size_t>(t)] = true;
    }
    s.sort();
    int expected = 0;
    for (std::int64_t t = window.begin_ns; t < window.end_ns; ++t)
      expected += busy[static_cast<std::size_t>(t)];
    CAPTURE(trial);
    CHECK(test::ns(busy_seconds(s, std::vector<TrackId>{track}, window)) == expected);
  }
}

namespace {

/// Three jobs through synthesis (CPU), h2d (copy stream) and compute (compute stream), times in ns:
///   job 0: synth [0,10]   h2d [10,12]  gpu [12,20]
///   job 1: synth [5,15]   h2d [15,17]  gpu [20,28]
///   job 2: synth [10,20]  h2d [20,22]  gpu [28,36]
struct ThreeJobs {
  Snapshot s;
  StageId synth, h2d, gpu;
  TrackId cpu, copy, compute;
  ThreeJobs() {
    synth = test::add_stage(s, "synthesis");
    h2d = test::add_stage(s, "h2d");
    gpu = test::add_stage(s, "msm");
    cpu = test::add_track(s, "cpu worker 0", TrackKind::cpu_worker);
    copy = test::add_track(s, "copy", TrackKind::cuda_stream, 0);
    compute = test::add_track(s, "compute", TrackKind::cuda_stream, 0);
    for (std::int64_t j = 0; j < 3; ++j) {
      const auto job = static_cast<std::uint64_t>(j);
      test::add_span(s, synth, cpu, 5 * j, 5 * j + 10, job);
      test::add_span(s, h2d, copy, 5 * j + 10, 5 * j + 12, job, 1000 * (job + 1));
      test::add_span(s, gpu, compute, 12 + 8 * j, 20 + 8 * j, job);
    }
    s.sort();
  }
};

}  // namespace

TEST_CASE("trace/stats/steady state excludes the ramp-up and ramp-down") {
  ThreeJobs run;
  CHECK(extent(run.s).begin_ns == 0);
  CHECK(extent(run.s).end_ns == 36);
  const auto window = steady_state_window(run.s);
  REQUIRE(window);
  CHECK(window->begin_ns == 10);  // job 0's synthesis ends
  CHECK(window->end_ns == 28);    // job 2's last GPU span begins
  const std::vector<TrackId> compute{run.compute};
  CHECK(busy_fraction(run.s, compute, *window) == doctest::Approx(16.0 / 18.0));  // idle [10,12]

  // Spans without a job do not count as jobs.
  Snapshot one_job;
  const StageId st = test::add_stage(one_job, "s");
  const TrackId tr = test::add_track(one_job, "t", TrackKind::cpu_worker);
  test::add_span(one_job, st, tr, 0, 10, 4);
  test::add_span(one_job, st, tr, 20, 30);
  test::add_span(one_job, st, tr, 40, 50, 4);
  CHECK_FALSE(steady_state_window(one_job));
  test::add_span(one_job, st, tr, 5, 45, 9);
  one_job.sort();
  const auto two = steady_state_window(one_job);
  REQUIRE(two);
  CHECK(two->begin_ns == 10);  // job 4 starts first; its first span ends at 10
  CHECK(two->end_ns == 40);    // job 4 also ends last; its last span begins at 40

  // Two jobs that do not overlap leave nothing in between the cuts when their spans touch.
  Snapshot serial;
  const StageId st2 = test::add_stage(serial, "s");
  const TrackId tr2 = test::add_track(serial, "t", TrackKind::cpu_worker);
  test::add_span(serial, st2, tr2, 0, 10, 0);
  test::add_span(serial, st2, tr2, 10, 20, 1);
  CHECK_FALSE(steady_state_window(serial));
  CHECK_FALSE(steady_state_window(Snapshot{}));
}

TEST_CASE("trace/stats/per-stage counts latencies and rates") {
  ThreeJobs run;
  const auto stats = stage_stats(run.s);
  REQUIRE(stats.size() == 3);
  CHECK(stats[0].name == "synthesis");
  CHECK(stats[0].count == 3);
  CHECK(test::ns(stats[0].busy_s) == 30);    // 3 x 10 ns, overlapping
  CHECK(test::ns(stats[0].active_s) == 20);  // union [0,20]
  CHECK(test::ns_from_ms(stats[0].p50_ms) == 10);
  CHECK(stats[1].bytes == 6000);
  CHECK(test::ns_from_ms(stats[2].max_ms) == 8);

  // Percentiles over uneven durations.
  Snapshot s;
  const StageId st = test::add_stage(s, "s");
  test::add_stage(s, "unused");  // no spans: no entry
  const TrackId tr = test::add_track(s, "t", TrackKind::cpu_worker);
  for (std::int64_t i = 1; i <= 100; ++i)
    test::add_span(s, st, tr, i * 1'000'000'000, i * 1'000'000'000 + i * 1'000'000);
  s.sort();
  const auto uneven = stage_stats(s);
  REQUIRE(uneven.size() == 1);
  CHECK(uneven[0].p50_ms == doctest::Approx(50.5));
  CHECK(uneven[0].p99_ms == doctest::Approx(99.01));
  CHECK(uneven[0].mean_ms == doctest::Approx(50.5));
  CHECK(uneven[0].max_ms == doctest::Approx(100));
  // A window keeps the spans that begin inside it.
  const auto windowed = stage_stats(s, Window{10'000'000'000, 20'000'000'000});
  REQUIRE(windowed.size() == 1);
  CHECK(windowed[0].count == 10);

  // 1000, 2000, 3000 bytes in 2 ns each: 6000 bytes / 6 ns.
  CHECK(bytes_per_second(run.s, run.h2d) == doctest::Approx(1e12));
  CHECK(bytes_per_second(run.s, run.h2d, Window{10, 11}) == doctest::Approx(5e11));
  CHECK(bytes_per_second(run.s, run.synth) == 0);   // no bytes
  CHECK(bytes_per_second(run.s, StageId(7)) == 0);  // no spans
  // Per GPU: two copies on GPU 1 at once, 4000 bytes in 1 ns and 2000 in 4 ns, each at its own rate.
  const TrackId copy1 = test::add_track(run.s, "copy 1", TrackKind::cuda_stream, 1);
  test::add_span(run.s, run.h2d, copy1, 40, 41, 3, 4000, 1);
  test::add_span(run.s, run.h2d, copy1, 40, 44, 4, 2000, 1);
  run.s.sort();
  CHECK(bytes_per_second(run.s, run.h2d, std::nullopt, 1) == doctest::Approx(6000 / 5e-9));
  CHECK(bytes_per_second(run.s, run.h2d, std::nullopt, 0) == 0);  // the three-job copies carry no GPU
  CHECK(bytes_per_second(run.s, run.h2d) == doctest::Approx(12000 / 11e-9));
}

TEST_CASE("trace/stats/counter summaries hold each value until the next sample") {
  Snapshot s;
  const TrackId waiting = test::add_track(s, "jobs waiting for a token", TrackKind::counter);
  const TrackId other = test::add_track(s, "other", TrackKind::counter);
  test::add_sample(s, waiting, 10, 0);
  test::add_sample(s, waiting, 20, 2);
  test::add_sample(s, other, 25, 100);
  test::add_sample(s, waiting, 30, 0);
  test::add_sample(s, waiting, 50, 1);
  s.sort();
  CHECK(test::ns(counter_seconds_above(s, waiting, Window{0, 60})) == 20);  // [20,30) + [50,60)
  CHECK(test::ns(counter_seconds_above(s, waiting, Window{25, 55})) == 10);
  CHECK(test::ns(counter_seconds_above(s, waiting, Window{0, 60}, 1.0)) == 10);
  CHECK(counter_seconds_above(s, waiting, Window{0, 15}) == 0);
  CHECK(test::ns(counter_seconds_above(s, other, Window{0, 100})) == 75);
  CHECK(test::ns(counter_seconds_above(s, waiting, Window{0, 10}, -1.0)) == 10);  // 0 before samples
  CHECK(counter_max(s, waiting) == 2);
  CHECK(counter_max(s, other) == 100);
}
