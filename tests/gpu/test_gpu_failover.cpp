// A GPU that dies under the pipeline (its context killed by a trapping kernel, a sticky error): it is taken
// out of service, the jobs it held are proved again on the CPU with Config::cpu_fallback and every proof
// verifies; without the fallback those jobs fail with Errc::cuda naming the GPU, submit refuses new ones, and
// shutdown still returns every pinned byte. Each case kills the device's context, so each runs in a process
// of its own (proofline_gpu_failover_tests, one ctest entry per case).
#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <vector>

#include <proofline/graph/pipeline.hpp>

#include "gpu/kill_context.hpp"
#include "pipeline/helpers.hpp"

using namespace proofline;
using namespace proofline::graph;
using namespace proofline::graph::test;

namespace {

TestConfig failover_config(bool cpu_fallback) {
  TestConfig config;
  config.backend = Backend::cuda;
  config.host_budget = 2ull << 30;
  config.verify = true;
  config.cpu_fallback = cpu_fallback;
  return config;
}

/// A fault hook that kills GPU 0's context when the first job past the first two reaches `stage` (so some
/// jobs are done, some in flight and some queued when it dies).
struct Killer {
  Stage stage = Stage::ntt;
  std::atomic<bool> killed{false};
  std::atomic<bool> context_dead{false};  ///< read on the test's thread (no assertions on pipeline threads)

  FaultHook hook() {
    return [this](Stage at, JobId id) {
      if (at != stage || id < 3 || killed.exchange(true)) return;
      context_dead = test_support::kill_cuda_context(0);
    };
  }
};

std::vector<Submission> submit_batch(Pipeline& pipeline, const Circuit& c, KeyHandle key, std::uint64_t first,
                                     std::size_t count) {
  std::vector<Submission> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(pipeline.submit(job(c, key, first + i)));
  return out;
}

}  // namespace

TEST_CASE(
    "pipeline/gpu_failover/a GPU whose context dies is taken out of service and its jobs prove on the CPU") {
  const Circuit& c = circuit(10);
  Killer killer;
  TestConfig config = failover_config(true);
  config.fault_hook = killer.hook();
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n10"));
  std::vector<Submission> before = submit_batch(pipeline, c, key, 0, 12);
  for (auto& s : before) {
    const JobResult r = await(s);
    CHECK_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(verifies(c, r));
  }
  CHECK(killer.context_dead.load());
  PipelineStats s = pipeline.stats();
  CHECK_FALSE(s.gpus[0].healthy);
  CHECK(s.retried >= 1);
  // Jobs submitted after the death go to the CPU at once.
  std::vector<Submission> after = submit_batch(pipeline, c, key, 100, 4);
  for (auto& sub : after) {
    const JobResult r = await(sub);
    CHECK_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(r.gpu == -1);
    CHECK(verifies(c, r));
  }
  pipeline.shutdown();
  s = pipeline.stats();
  CHECK(s.proofs == 16);
  CHECK(s.failed == 0);
  CHECK(s.pool.bytes_leased == 0);
  CHECK(s.pool.slots_out == 0);
}

TEST_CASE(
    "pipeline/gpu_failover/without the CPU fallback the dead GPU's jobs fail with its name and submit "
    "refuses") {
  const Circuit& c = circuit(10);
  Killer killer;
  killer.stage = Stage::msm;
  TestConfig config = failover_config(false);
  config.fault_hook = killer.hook();
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n10"));
  std::vector<Submission> batch = submit_batch(pipeline, c, key, 0, 8);
  std::size_t failed = 0;
  for (auto& sub : batch) {
    const JobResult r = await(sub);
    if (r.ok()) {
      CHECK(verifies(c, r));  // finished before the death
      continue;
    }
    ++failed;
    CHECK(r.error->code == Errc::cuda);
    CHECK_MESSAGE(r.error->message.find("GPU 0") != std::string::npos, r.error->message);
  }
  CHECK(killer.context_dead.load());
  CHECK(failed >= 1);
  CHECK_FALSE(pipeline.stats().gpus[0].healthy);
  CHECK_THROWS_WITH_AS(pipeline.submit(job(c, key, 50)), doctest::Contains("out of service"), Error);
  pipeline.shutdown();
  const PipelineStats s = pipeline.stats();
  CHECK(s.retried == 0);
  CHECK(s.pool.bytes_leased == 0);
  CHECK(s.pool.slots_out == 0);
}
