// Shared by the pipeline tests: small synthetic circuits with keys made once per process, a CPU-backend
// configuration, jobs, and waits that fail a test instead of hanging it.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include <doctest/doctest.h>

#include <oneapi/tbb/global_control.h>

#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/verifier.hpp>

#include "support/pipeline_hooks.hpp"
#include "support/synthetic_keys.hpp"
#include "support/temp_dir.hpp"
#include "support/waits.hpp"

namespace proofline::graph::test {

using namespace std::chrono_literals;

// Polling with a limit, the gate jobs wait at (inside a fault hook) until the test opens it, and a temporary
// directory removed at scope exit: tests/support's, shared with the other suites.
using test_support::eventually;
using test_support::Gate;
using test_support::TempDir;

/// oneTBB starts one worker per core less one; on a two-core CI machine that is a single worker, and then a
/// test of "at most one job synthesizes at a time" could not fail. Eight threads make the limits under test
/// (tokens, synthesis concurrency, the task arena's cap) the only ones.
inline const oneapi::tbb::global_control test_parallelism(
    oneapi::tbb::global_control::max_allowed_parallelism, 8);

/// A synthetic circuit and its keys, shared (read-only) by every test of the process.
using Circuit = test_support::SyntheticKeys;

inline const Circuit& circuit(unsigned log_size, HConvention convention = HConvention::generator7) {
  static std::mutex mutex;
  static std::map<std::pair<unsigned, int>, std::unique_ptr<Circuit>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[{log_size, static_cast<int>(convention)}];
  if (!slot) slot = test_support::make_synthetic_keys(log_size, 100 + log_size, 7 + log_size, convention);
  return *slot;
}

/// The CPU backend on host pages, a budget far above what the tests use, threads capped.
inline TestConfig cpu_config() {
  TestConfig config;
  config.backend = Backend::cpu;
  config.pinning = memory::PinningKind::host;
  config.host_budget = 256ull << 20;
  config.max_threads = 4;
  config.synthesis_concurrency = 2;
  return config;
}

/// cpu_config() with one slot, whose synthesis stage holds every job listed in `held` at `gate`.
inline TestConfig holding(Gate& gate, std::mutex& mutex, std::set<JobId>& held) {
  TestConfig config = cpu_config();
  config.slots = 1;
  config.fault_hook = [&gate, &mutex, &held](Stage stage, JobId id) {
    if (stage != Stage::synthesis) return;
    bool hold = false;
    {
      std::lock_guard lock(mutex);
      hold = held.count(id) != 0;
    }
    if (hold) gate.wait();
  };
  return config;
}

/// A job whose witness (another one of the same circuit for each seed) is written into the slot by a
/// callback, as a circuit library would.
inline Job job(const Circuit& c, KeyHandle key, std::uint64_t seed, int priority = 0) {
  Job j;
  j.key = key;
  j.priority = priority;
  j.label = "seed " + std::to_string(seed);
  j.witness = WitnessCallback{[&c, seed](const WitnessTarget& target) {
                                groth16::synthetic_witness_into(*c.cs, c.options, seed, target.z.unchecked());
                              },
                              WitnessCallback::Fills::witness};
  return j;
}

/// The result, or a failed check (instead of a hang) when it does not come within `limit`.
inline JobResult await(Submission& submission, std::chrono::seconds limit = 300s) {
  REQUIRE_MESSAGE(submission.result.wait_for(limit) == std::future_status::ready,
                  "job " << submission.id << " has no result after " << limit.count() << " s");
  return submission.result.get();
}

/// Whether the proof verifies with the circuit's key for its public inputs (independently of Config::verify).
/// Submits `count` jobs of `c` (seeds first_seed, first_seed + 1, ...), checks that each is proved, and
/// drains the pipeline.
inline void prove_and_drain(Pipeline& pipeline, const Circuit& c, KeyHandle key, std::uint64_t count,
                            std::uint64_t first_seed = 0) {
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < count; ++i) submitted.push_back(pipeline.submit(job(c, key, first_seed + i)));
  for (auto& s : submitted) CHECK(await(s).ok());
  pipeline.drain();
}

inline bool verifies(const Circuit& c, const JobResult& r) {
  return r.proof && groth16::verify(c.pvk, r.public_inputs, *r.proof);
}

/// Nothing leased, nothing in flight, every token home.
inline void check_idle(const Pipeline& pipeline) {
  const PipelineStats s = pipeline.stats();
  CHECK(s.pool.bytes_leased == 0);
  CHECK(s.pool.slots_out == 0);
  CHECK(s.slots_in_flight == 0);
  CHECK(s.stages.in_flight() == 0);
  CHECK(s.queue_depth == 0);
}

}  // namespace proofline::graph::test
