// proofline_soak: many small jobs through one long-lived pipeline with faults injected at random in every
// stage, random cancels and random timeouts, in waves, then a shutdown with jobs in flight; it checks what
// must hold under that load and exits 1 when anything does not:
//   - every job gets exactly one result (its callback once, its future once), none is lost or doubled;
//   - every successful proof verifies (checked here, independently of the pipeline);
//   - a job with nothing planned against it succeeds; a failure is the planned fault, a cancel or a timeout;
//   - nothing is leased once a wave has drained (but the pipeline's own lifetime leases), and nothing at all
//     after the final shutdown (pinned bytes, slots, tokens);
//   - memory is flat: the resident set after the last wave is within a bound of the one after the first.
//
//   proofline_soak --jobs 1000                      # the CPU backend (the ctest soak/cpu)
//   proofline_soak --backend cuda --jobs 20000 --log-sizes 12,14 --json soak.json     # on a GPU machine
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <oneapi/tbb/global_control.h>

#include <proofline/graph/pipeline.hpp>
#include <proofline/graph/testing.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/util/options.hpp>

#include "support/synthetic_keys.hpp"

namespace {

using namespace proofline;
using namespace proofline::graph;
using Clock = std::chrono::steady_clock;

struct Args {
  Backend backend = Backend::cpu;
  std::uint64_t jobs = 1000;
  std::vector<unsigned> log_sizes{8, 10};
  std::uint64_t seed = 1;
  double fault_rate = 0.04;
  double cancel_rate = 0.04;
  double timeout_rate = 0.04;
  unsigned waves = 5;
  std::uint64_t in_flight_at_shutdown = 64;
  std::uint64_t max_rss_growth = 48ull << 20;
  std::size_t threads = 0;
  std::string json;
};

std::optional<Args> parse(int argc, char** argv) {
  Args a;
  OptionParser cli("proofline_soak", "usage: proofline_soak [options]",
                   "Jobs with random faults, cancels and timeouts through one pipeline, then a shutdown with "
                   "jobs in flight; checks that every job has exactly one result and nothing leaks.");
  cli.choice("--backend", "the backend (default cpu)", a.backend,
             Choices<Backend>{{"cpu", Backend::cpu}, {"cuda", Backend::cuda}});
  cli.integer("--jobs", "N", "jobs in the waves (default 1000)", a.jobs,
              Bounds<std::uint64_t>{1, 10'000'000});
  cli.integer_list("--log-sizes", "A,B", "circuit sizes as log2 rows, one key each (default 8,10)",
                   a.log_sizes, Bounds<unsigned>{4, 20});
  cli.integer("--seed", "S", "random seed (default 1)", a.seed, Bounds<std::uint64_t>{0, ~0ull});
  cli.real("--fault-rate", "P", "share of jobs with a fault in one stage (default 0.04)", a.fault_rate,
           Bounds<double>{0, 1});
  cli.real("--cancel-rate", "P", "share of jobs cancelled after submit (default 0.04)", a.cancel_rate,
           Bounds<double>{0, 1});
  cli.real("--timeout-rate", "P", "share of jobs with a 1-20 ms timeout (default 0.04)", a.timeout_rate,
           Bounds<double>{0, 1});
  cli.integer("--waves", "N", "waves the jobs come in, drained between (default 5)", a.waves,
              Bounds<unsigned>{2, 10'000});
  cli.integer("--in-flight-at-shutdown", "N", "jobs submitted just before the final shutdown (default 64)",
              a.in_flight_at_shutdown, Bounds<std::uint64_t>{0, 1'000'000});
  cli.size("--max-rss-growth", "SIZE", "resident-set growth allowed from wave 1 to the last (default 48M)",
           a.max_rss_growth);
  cli.integer("--threads", "N", "pipeline threads (default: every hardware thread)", a.threads,
              thread_bounds());
  cli.text("--json", "FILE", "write the counts as JSON too", a.json);
  cli.epilog("Exit codes: 0 every check held, 1 a check failed, 2 bad options.");
  if (!cli.parse(argc, argv)) return std::nullopt;
  return a;
}

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * 4096;
}

using Circuit = test_support::SyntheticKeys;

std::unique_ptr<Circuit> make_circuit(unsigned log_size) {
  return test_support::make_synthetic_keys(log_size, 500 + log_size, log_size);
}

/// What the soak planned against one job, drawn before it is submitted.
struct Plan {
  std::size_t circuit = 0;
  std::uint64_t witness_seed = 0;
  std::optional<Stage> fault;
  bool cancel = false;
  std::optional<std::chrono::milliseconds> timeout;
  bool in_memory = false;
};

/// A job's outcome as the soak saw it.
struct Record {
  Plan plan;
  bool at_shutdown = false;  ///< submitted just before the final shutdown (may be cancelled by it)
  std::atomic<int> callbacks{0};
  std::optional<JobResult> result;
};

/// The faults planned, by job id (the fault hook sees ids only); set before a job can reach a stage.
class FaultTable {
 public:
  /// Runs `submit` (which returns the new job's id) and plans its fault under one lock, so the hook cannot
  /// look the job up in between.
  template <class Submit>
  Submission submit_with(Submit&& submit, std::optional<Stage> fault) {
    std::lock_guard lock(mutex_);
    Submission s = submit();
    if (fault) faults_[s.id] = *fault;
    return s;
  }
  void hook(Stage stage, JobId id) {
    std::lock_guard lock(mutex_);
    const auto it = faults_.find(id);
    if (it != faults_.end() && it->second == stage) throw Error(Errc::io, "soak: injected fault");
  }

 private:
  std::mutex mutex_;
  std::unordered_map<JobId, Stage> faults_;
};

std::vector<Stage> fault_stages(Backend backend) {
  std::vector<Stage> stages{Stage::admission, Stage::synthesis, Stage::ntt, Stage::msm, Stage::release};
  if (backend == Backend::cuda) stages.push_back(Stage::h2d);
  return stages;
}

Plan draw_plan(const Args& a, std::mt19937_64& rng, std::size_t circuits, std::uint64_t index) {
  std::uniform_real_distribution<double> unit(0, 1);
  Plan p;
  p.circuit = static_cast<std::size_t>(rng() % circuits);
  p.witness_seed = a.seed * 1'000'003 + index;
  const std::vector<Stage> stages = fault_stages(a.backend);
  if (unit(rng) < a.fault_rate) p.fault = stages[rng() % stages.size()];
  p.cancel = unit(rng) < a.cancel_rate;
  if (unit(rng) < a.timeout_rate) p.timeout = std::chrono::milliseconds(1 + rng() % 20);
  p.in_memory = unit(rng) < 0.3;
  return p;
}

Job make_job(const Circuit& c, KeyHandle key, Record& record) {
  Job job;
  job.key = key;
  job.timeout = record.plan.timeout;
  job.label = "seed " + std::to_string(record.plan.witness_seed);
  const std::uint64_t seed = record.plan.witness_seed;
  if (record.plan.in_memory) {
    job.witness = MemoryWitness{
        std::make_shared<const std::vector<Fr>>(groth16::synthetic_witness(*c.cs, c.options, seed))};
  } else {
    job.witness = WitnessCallback{[&c, seed](const WitnessTarget& t) {
      groth16::synthetic_witness_into(*c.cs, c.options, seed, t.z.unchecked());
    }};
  }
  job.on_result = [&record](const JobResult&) { record.callbacks.fetch_add(1); };
  return job;
}

/// Counts of what happened, and the first few problems.
struct Tally {
  std::uint64_t jobs = 0, proofs = 0, faults = 0, cancelled = 0, timed_out = 0;
  std::vector<std::string> problems;
  void problem(std::string text) {
    if (problems.size() < 20) std::fprintf(stderr, "proofline_soak: %s\n", text.c_str());
    problems.push_back(std::move(text));
  }
};

/// The checks on one job's result.
void check_record(const std::vector<std::unique_ptr<Circuit>>& circuits, const Record& r, Tally& tally) {
  ++tally.jobs;
  const std::string who = "job '" + (r.result ? r.result->label : std::string("?")) + "'";
  if (r.callbacks.load() != 1)
    tally.problem(who + ": " + std::to_string(r.callbacks.load()) + " result callbacks, not 1");
  if (!r.result) return tally.problem(who + ": no result");
  const JobResult& res = *r.result;
  if (res.ok()) {
    ++tally.proofs;
    if (!groth16::verify(circuits[r.plan.circuit]->pvk, res.public_inputs, *res.proof))
      tally.problem(who + ": its proof does not verify");
    return;
  }
  const Errc code = res.error->code;
  if (code == Errc::io && res.error->message.find("soak: injected fault") != std::string::npos &&
      r.plan.fault) {
    ++tally.faults;
  } else if (code == Errc::cancelled && (r.plan.cancel || r.at_shutdown)) {
    ++tally.cancelled;
  } else if (code == Errc::timeout && r.plan.timeout) {
    ++tally.timed_out;
  } else {
    tally.problem(who + ": unplanned failure in " + std::string(to_string(res.error->stage)) + ": " +
                  res.error->message);
  }
  if (!r.plan.fault && !r.plan.cancel && !r.plan.timeout && !r.at_shutdown)
    tally.problem(who + ": nothing was planned against it, yet it failed");
}

/// `resident_leases`: pinned bytes the pipeline itself holds while it runs (the CUDA backend's device slots
/// lease their pinned result buffers from the pool for the pipeline's lifetime), 0 after shutdown.
void check_idle(const Pipeline& pipeline, const char* when, std::uint64_t resident_leases, Tally& tally) {
  const PipelineStats s = pipeline.stats();
  if (s.pool.bytes_leased != resident_leases || s.pool.slots_out != 0 || s.slots_in_flight != 0 ||
      s.queue_depth != 0)
    tally.problem(std::string(when) + ": still leased: " + std::to_string(s.pool.bytes_leased) +
                  " pinned bytes, " + std::to_string(s.pool.slots_out) + " slots, " +
                  std::to_string(s.slots_in_flight) + " in flight, " + std::to_string(s.queue_depth) +
                  " queued");
  // Each proved job counted once in each latency histogram, whatever else happened to the jobs around it.
  for (const LatencyHistogram* h : {&s.proof_seconds, &s.queued_seconds})
    if (h->count != s.proofs || h->at_most.back() > h->count)
      tally.problem(std::string(when) + ": a latency histogram counts " + std::to_string(h->count) +
                    " jobs (" + std::to_string(h->at_most.back()) + " in its last bucket) for " +
                    std::to_string(s.proofs) + " proofs");
}

/// Submits `count` jobs with their plans; cancels the planned ones right after their submit.
void submit_wave(Pipeline& pipeline, const Args& a, std::mt19937_64& rng,
                 const std::vector<std::unique_ptr<Circuit>>& circuits, const std::vector<KeyHandle>& keys,
                 FaultTable& faults, std::vector<std::unique_ptr<Record>>& records,
                 std::vector<Submission>& submissions, std::uint64_t count, bool at_shutdown = false) {
  for (std::uint64_t i = 0; i < count; ++i) {
    auto record = std::make_unique<Record>();
    record->plan = draw_plan(a, rng, circuits.size(), records.size());
    Job job = make_job(*circuits[record->plan.circuit], keys[record->plan.circuit], *record);
    record->at_shutdown = at_shutdown;
    Submission s = faults.submit_with([&] { return pipeline.submit(std::move(job)); }, record->plan.fault);
    if (record->plan.cancel) pipeline.cancel(s.id);
    submissions.push_back(std::move(s));
    records.push_back(std::move(record));
  }
}

void collect(std::vector<Submission>& submissions, std::vector<std::unique_ptr<Record>>& records,
             std::size_t first, Tally& tally) {
  for (std::size_t i = first; i < submissions.size(); ++i) {
    if (submissions[i].result.wait_for(std::chrono::minutes(10)) != std::future_status::ready) {
      tally.problem("job " + std::to_string(submissions[i].id) + " has no result after 10 minutes");
      continue;
    }
    records[i]->result = submissions[i].result.get();
  }
}

Config soak_config(const Args& a) {
  Config config;
  config.backend = a.backend;
  config.host_budget = a.backend == Backend::cpu ? 24ull << 20 : 4ull << 30;
  config.max_threads = a.threads;
  config.queue_capacity = 1u << 20;
  config.max_log_n = *std::max_element(a.log_sizes.begin(), a.log_sizes.end());  // device slots fit every key
  return config;
}

int run(const Args& a) {
  const auto start = Clock::now();
  std::vector<std::unique_ptr<Circuit>> circuits;
  for (const unsigned log_size : a.log_sizes) circuits.push_back(make_circuit(log_size));
  auto faults = std::make_shared<FaultTable>();
  Pipeline pipeline = testing::make_pipeline(
      soak_config(a), testing::Hooks{[faults](Stage stage, JobId id) { faults->hook(stage, id); }});
  std::vector<KeyHandle> keys;
  for (std::size_t i = 0; i < circuits.size(); ++i)
    keys.push_back(pipeline.add_key(KeySpec{std::string("n") + std::to_string(a.log_sizes[i]),
                                            circuits[i]->pk, circuits[i]->cs, circuits[i]->vk}));

  const std::uint64_t resident_leases = pipeline.stats().pool.bytes_leased;
  std::mt19937_64 rng(a.seed);
  std::vector<std::unique_ptr<Record>> records;
  std::vector<Submission> submissions;
  Tally tally;
  std::uint64_t rss_after_first = 0;
  for (unsigned wave = 0; wave < a.waves; ++wave) {
    const std::size_t first = submissions.size();
    const std::uint64_t count = a.jobs / a.waves + (wave < a.jobs % a.waves ? 1 : 0);
    submit_wave(pipeline, a, rng, circuits, keys, *faults, records, submissions, count);
    collect(submissions, records, first, tally);
    pipeline.drain();
    check_idle(pipeline, ("after wave " + std::to_string(wave + 1)).c_str(), resident_leases, tally);
    if (wave == 0) rss_after_first = resident_bytes();
  }
  const std::uint64_t rss_last = resident_bytes();
  if (rss_last > rss_after_first + a.max_rss_growth)
    tally.problem("memory grew from " + std::to_string(rss_after_first >> 20) +
                  " MiB after the first wave to " + std::to_string(rss_last >> 20) + " MiB after the last");

  // The end: jobs in flight when the pipeline shuts down (queued ones cancelled, running ones finished).
  const std::size_t first = submissions.size();
  submit_wave(pipeline, a, rng, circuits, keys, *faults, records, submissions, a.in_flight_at_shutdown, true);
  pipeline.shutdown(ShutdownMode::cancel);
  collect(submissions, records, first, tally);
  check_idle(pipeline, "after shutdown", 0, tally);
  for (const auto& record : records) check_record(circuits, *record, tally);

  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf(
      "proofline_soak: %llu jobs in %.1f s: %llu proofs (all verified), %llu injected faults, %llu "
      "cancelled, %llu timed out; resident set %llu MiB after wave 1, %llu MiB after the last; %zu "
      "problems\n",
      static_cast<unsigned long long>(tally.jobs), seconds, static_cast<unsigned long long>(tally.proofs),
      static_cast<unsigned long long>(tally.faults), static_cast<unsigned long long>(tally.cancelled),
      static_cast<unsigned long long>(tally.timed_out),
      static_cast<unsigned long long>(rss_after_first >> 20), static_cast<unsigned long long>(rss_last >> 20),
      tally.problems.size());
  if (!a.json.empty()) {
    std::ofstream out(a.json);
    out << "{\"backend\":\"" << (a.backend == Backend::cpu ? "cpu" : "cuda") << "\",\"jobs\":" << tally.jobs
        << ",\"seconds\":" << seconds << ",\"proofs\":" << tally.proofs << ",\"faults\":" << tally.faults
        << ",\"cancelled\":" << tally.cancelled << ",\"timed_out\":" << tally.timed_out
        << ",\"rss_first_mib\":" << (rss_after_first >> 20) << ",\"rss_last_mib\":" << (rss_last >> 20)
        << ",\"problems\":" << tally.problems.size() << "}\n";
  }
  return tally.problems.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return run_with_options(
      "proofline_soak", [&] { return parse(argc, argv); }, [](const Args& a) { return run(a); });
}
