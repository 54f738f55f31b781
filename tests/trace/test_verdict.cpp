#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <proofline/trace/verdict.hpp>
#include <proofline/util/error.hpp>

#include "trace/trace_fixture.hpp"

using namespace proofline;
using namespace proofline::trace;

namespace {

VerdictInput run(double gpu, double h2d, double synthesis, double tokens = -1, int gpus = 1) {
  VerdictInput in;
  in.wall_s = 10;
  in.gpus = gpus;
  in.gpu_busy_s = gpu * 10 * gpus;
  in.h2d_busy_s = h2d * 10 * gpus;
  in.synthesis_busy_s = synthesis * 10;
  in.token_wait_s = tokens < 0 ? -1 : tokens * 10;
  return in;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("trace/verdict/a saturated GPU bounds the run whatever feeds it") {
  const Verdict v = verdict(run(0.97, 0.95, 0.99, 0.5));
  CHECK(v.bound == Bound::gpu_compute);
  CHECK(v.gpu == doctest::Approx(0.97));
  CHECK(contains(v.reason, "GPU compute"));
  CHECK(contains(v.reason, "97%"));
  CHECK(v.reason.find('\n') == std::string::npos);
  // The threshold is inclusive.
  CHECK(verdict(run(0.90, 0.2, 0.2)).bound == Bound::gpu_compute);
  CHECK(verdict(run(0.8999, 0.2, 0.2, 0.0)).bound == Bound::input);
}

TEST_CASE("trace/verdict/a starving GPU names the saturated feeding stage") {
  const Verdict h2d = verdict(run(0.6, 0.95, 0.5));
  CHECK(h2d.bound == Bound::h2d);
  CHECK(contains(h2d.reason, "H2D"));
  CHECK(contains(h2d.reason, "95%"));
  const Verdict synth = verdict(run(0.6, 0.5, 0.99, 0.3));
  CHECK(synth.bound == Bound::synthesis);
  CHECK(contains(synth.reason, "synthesis"));
  CHECK(verdict(run(0.6, 0.95, 0.95)).bound == Bound::h2d);        // a tie goes to H2D
  CHECK(verdict(run(0.6, 0.92, 0.97)).bound == Bound::synthesis);  // the larger one wins
}

TEST_CASE("trace/verdict/nothing saturated is tokens when jobs queue and input when they do not") {
  const Verdict tokens = verdict(run(0.5, 0.3, 0.6, 0.8));
  CHECK(tokens.bound == Bound::tokens);
  REQUIRE(tokens.tokens);
  CHECK(*tokens.tokens == doctest::Approx(0.8));
  CHECK(contains(tokens.reason, "token"));
  CHECK(std::string(to_string(tokens.bound)) == "budget/tokens");

  const Verdict unknown = verdict(run(0.5, 0.3, 0.6));
  CHECK(unknown.bound == Bound::tokens);
  CHECK_FALSE(unknown.tokens);
  CHECK(contains(unknown.reason, "not measured"));

  CHECK(verdict(run(0.5, 0.3, 0.6, 0.25)).bound == Bound::tokens);  // at the threshold
  const Verdict input = verdict(run(0.5, 0.3, 0.6, 0.05));
  CHECK(input.bound == Bound::input);
  CHECK(contains(input.reason, "input"));
}

TEST_CASE("trace/verdict/jobs queueing behind a busy synthesis are synthesis bound, not token bound") {
  // One synthesis thread busy 83% of the time with jobs queued for slots: the slots wait for synthesis.
  const Verdict v = verdict(run(0.4, 0.3, 0.83, 0.6));
  CHECK(v.bound == Bound::synthesis);
  CHECK(contains(v.reason, "more synthesis threads would help"));
  CHECK(verdict(run(0.4, 0.3, 0.7, 0.6)).bound == Bound::tokens);   // synthesis not that busy
  CHECK(verdict(run(0.85, 0.3, 0.8, 0.6)).bound == Bound::tokens);  // nor the busiest stage
  CHECK(verdict(run(0.4, 0.3, 0.83, 0.1)).bound == Bound::input);   // nor do jobs queue
}

TEST_CASE("trace/verdict/utilisation is per GPU and the rule is adjustable") {
  CHECK(verdict(run(0.95, 0.1, 0.1, 0, 2)).bound == Bound::gpu_compute);
  VerdictInput two = run(0.5, 0.1, 0.1, 0, 2);
  CHECK(verdict(two).gpu == doctest::Approx(0.5));
  two.gpu_busy_s = 19;  // 1.9 GPU-seconds per second on 2 GPUs
  CHECK(verdict(two).gpu == doctest::Approx(0.95));
  two.gpus = 1;  // the same busy time on one GPU is clamped, not above 100%
  CHECK(verdict(two).gpu == 1.0);

  VerdictRule lenient;
  lenient.saturated = 0.7;
  CHECK(verdict(run(0.75, 0.1, 0.1, 0), lenient).bound == Bound::gpu_compute);
  lenient.token_wait = 0.01;
  CHECK(verdict(run(0.5, 0.1, 0.1, 0.05), lenient).bound == Bound::tokens);
}

TEST_CASE("trace/verdict/rejects impossible inputs") {
  VerdictInput bad = run(0.5, 0.5, 0.5);
  bad.wall_s = 0;
  CHECK_THROWS_AS(verdict(bad), Error);
  bad = run(0.5, 0.5, 0.5);
  bad.gpus = 0;
  CHECK_THROWS_AS(verdict(bad), Error);
  bad = run(0.5, 0.5, 0.5);
  bad.h2d_busy_s = -1;
  CHECK_THROWS_AS(verdict(bad), Error);
  bad = run(0.5, 0.5, 0.5);
  bad.gpu_busy_s = std::nan("");
  CHECK_THROWS_AS(verdict(bad), Error);
}

TEST_CASE("trace/verdict/inputs measured from a snapshot") {
  Snapshot s;
  const StageId synth = test::add_stage(s, "synthesis");
  const StageId h2d = test::add_stage(s, "h2d");
  const StageId msm = test::add_stage(s, "msm");
  const TrackId cpu0 = test::add_track(s, "cpu worker 0", TrackKind::cpu_worker);
  const TrackId cpu1 = test::add_track(s, "cpu worker 1", TrackKind::cpu_worker);
  const TrackId copy0 = test::add_track(s, "copy", TrackKind::cuda_stream, 0);
  const TrackId copy1 = test::add_track(s, "copy", TrackKind::cuda_stream, 1);
  const TrackId compute0a = test::add_track(s, "compute a", TrackKind::cuda_stream, 0);
  const TrackId compute0b = test::add_track(s, "compute b", TrackKind::cuda_stream, 0);
  const TrackId compute1 = test::add_track(s, "compute", TrackKind::cuda_stream, 1);
  const TrackId waiting = test::add_track(s, "jobs waiting for a token", TrackKind::counter);
  test::add_span(s, synth, cpu0, 0, 60, 0);
  test::add_span(s, synth, cpu1, 40, 80, 1);  // union with the first: [0,80]
  test::add_span(s, h2d, copy0, 0, 20, 0);
  test::add_span(s, h2d, copy1, 10, 30, 1);  // other GPU: adds, does not merge
  test::add_span(s, msm, compute0a, 0, 50, 0);
  test::add_span(s, msm, compute0b, 25, 75, 0);  // same GPU, other stream: merges to [0,75]
  test::add_span(s, msm, compute1, 0, 100, 1);
  test::add_sample(s, waiting, 0, 3);
  test::add_sample(s, waiting, 40, 0);
  s.sort();

  RunRoles roles;
  roles.synthesis = {synth};
  roles.copy_streams = {copy0, copy1};
  roles.compute_streams = {compute0a, compute0b, compute1};
  roles.tokens_waiting = waiting;
  const VerdictInput in = verdict_input(s, roles, Window{0, 100});
  CHECK(test::ns(in.wall_s) == 100);
  CHECK(in.gpus == 2);
  CHECK(test::ns(in.gpu_busy_s) == 175);
  CHECK(test::ns(in.h2d_busy_s) == 40);
  CHECK(test::ns(in.synthesis_busy_s) == 80);
  CHECK(test::ns(in.token_wait_s) == 40);
  const Verdict v = verdict(in);
  CHECK(v.gpu == doctest::Approx(0.875));
  CHECK(v.bound == Bound::tokens);  // nothing at 90%, jobs waited 40% of the time

  roles.tokens_waiting.reset();
  CHECK(verdict_input(s, roles, Window{0, 100}).token_wait_s < 0);
}

TEST_CASE("trace/verdict/on the CPU backend the reason speaks of CPU compute, never of a GPU or H2D") {
  VerdictInput saturated = run(0.95, 0, 0.5);
  saturated.cpu_device = true;
  const Verdict v = verdict(saturated);
  CHECK(v.bound == Bound::gpu_compute);
  CHECK(contains(v.reason, "CPU compute bound"));
  CHECK(contains(v.reason, "H and MSM"));
  CHECK_FALSE(contains(v.reason, "GPU"));
  CHECK_FALSE(contains(v.reason, "H2D"));
  VerdictInput starving = run(0.3, 0, 0.97);
  starving.cpu_device = true;
  const Verdict s = verdict(starving);
  CHECK(s.bound == Bound::synthesis);
  CHECK(contains(s.reason, "while the H and MSM stages wait"));
  CHECK_FALSE(contains(s.reason, "GPU"));
  CHECK_FALSE(contains(s.reason, "H2D"));
}

TEST_CASE("trace/verdict/on the CPU backend busy worker threads bound the run whatever stage keeps them") {
  // Small jobs: H and MSM take 40% of the time, but with the proofs' assembly and verification the threads
  // are busy 95% of it; jobs queue for slots, which more slots would not cure.
  VerdictInput threads_busy = run(0.4, 0, 0.05, 0.9);
  threads_busy.cpu_device = true;
  threads_busy.cpu_threads_busy = 0.95;
  const Verdict v = verdict(threads_busy);
  CHECK(v.bound == Bound::gpu_compute);
  CHECK(contains(v.reason, "CPU bound: the worker threads are saturated"));
  CHECK(v.detail ==
        "H and MSM busy 40%, the worker threads 95%, synthesis 5%, jobs waiting for a token 90% of "
        "the time");
  CHECK(v.reason.ends_with(" (" + v.detail + ")"));
  // Threads with room: the stages decide as before.
  threads_busy.cpu_threads_busy = 0.6;
  CHECK(verdict(threads_busy).bound == Bound::tokens);
  threads_busy.cpu_threads_busy = -1;  // not measured: not named
  CHECK_FALSE(contains(verdict(threads_busy).detail, "worker threads"));
}
