// The pipeline on the CUDA backend (runs only where a GPU exists): mixed 2^12 and 2^14 jobs prove and verify,
// baseline mode proves with the same kernels, faults in the GPU stages fail only their job, device slots
// bound the jobs on a GPU, the graph runs in a two-thread arena, and keys that do not fit VRAM together are
// evicted least recently used first and come back when needed, keys keep MSM tables where VRAM allows, keys
// placed on chosen GPUs stay there (BN254 keys: test_pipeline_gpu_bn254.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <set>

#include <proofline/cuda/device.hpp>
#include <proofline/cuda/gpu_fixed_base.hpp>
#include <proofline/graph/memory_plan.hpp>
#include <proofline/graph/metrics.hpp>
#include <proofline/graph/observe.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/graph/report.hpp>
#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/memory/pinning.hpp>
#include <proofline/trace/stats.hpp>
#include <proofline/util/size.hpp>

#include "support/pipeline_hooks.hpp"
#include "support/temp_dir.hpp"
#include "support/waits.hpp"

using namespace proofline;
using namespace proofline::graph;
using proofline::graph::test::make_pipeline;
using proofline::graph::test::TestConfig;
using namespace std::chrono_literals;

namespace {

struct GpuCircuit {
  groth16::SyntheticOptions options;
  std::shared_ptr<const groth16::ConstraintSystem> cs;
  std::shared_ptr<const groth16::ProvingKey> pk;
  std::shared_ptr<const groth16::VerifyingKey> vk;
  groth16::PreparedVerifyingKey pvk;

  KeySpec spec(std::string name) const { return KeySpec{std::move(name), pk, cs, vk}; }
};

const GpuCircuit& gpu_circuit(unsigned log_size) {
  static std::mutex mutex;
  static std::map<unsigned, std::unique_ptr<GpuCircuit>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[log_size];
  if (!slot) {
    auto c = std::make_unique<GpuCircuit>();
    c->options = groth16::SyntheticOptions{.log_size = log_size, .num_public = 2, .seed = 300 + log_size};
    groth16::SyntheticCircuit made = groth16::make_synthetic_circuit(c->options);
    groth16::SetupOptions setup;
    setup.fixed_base.g1 = [](const G1Affine& b, std::span<const Fr> s, std::span<G1Affine> o) {
      cuda::fixed_base_mul_g1(b, s, o);
    };
    setup.fixed_base.g2 = [](const G2Affine& b, std::span<const Fr> s, std::span<G2Affine> o) {
      cuda::fixed_base_mul_g2(b, s, o);
    };
    groth16::KeyPair keys =
        groth16::setup_from_trapdoor(made.cs, groth16::trapdoor_from_seed(log_size), setup);
    c->cs = std::make_shared<const groth16::ConstraintSystem>(std::move(made.cs));
    c->pk = std::make_shared<const groth16::ProvingKey>(std::move(keys.pk));
    c->pvk = groth16::prepare(keys.vk);
    c->vk = std::make_shared<const groth16::VerifyingKey>(std::move(keys.vk));
    slot = std::move(c);
  }
  return *slot;
}

Config gpu_config() {
  Config config;
  config.backend = Backend::cuda;
  config.host_budget = 8ull << 30;
  config.max_log_n = 14;
  config.verify = true;
  return config;
}

/// GPUs 0 and 1, the keys' SRS placed as `srs`.
TestConfig two_gpu_config(SrsPlacement srs) {
  TestConfig config = gpu_config();
  config.gpus = {0, 1};
  config.srs = srs;
  return config;
}

Job gpu_job(const GpuCircuit& c, KeyHandle key, std::uint64_t seed) {
  Job j;
  j.key = key;
  j.witness = WitnessCallback{[&c, seed](const WitnessTarget& t) {
    groth16::synthetic_witness_into(*c.cs, c.options, seed, t.z.unchecked());
  }};
  return j;
}

JobResult await(Submission& s) {
  REQUIRE_MESSAGE(s.result.wait_for(600s) == std::future_status::ready, "job " << s.id << " never finished");
  return s.result.get();
}

bool verifies(const GpuCircuit& c, const JobResult& r) {
  return r.proof && groth16::verify(c.pvk, r.public_inputs, *r.proof);
}

}  // namespace

TEST_CASE("pipeline/gpu/the CUDA backend proves mixed 2^12 and 2^14 jobs and every proof verifies") {
  const GpuCircuit& small = gpu_circuit(12);
  const GpuCircuit& large = gpu_circuit(14);
  const auto started = std::chrono::steady_clock::now();
  Pipeline pipeline = make_pipeline(gpu_config());
  REQUIRE(pipeline.backend() == Backend::cuda);
  const KeyHandle k12 = pipeline.add_key(small.spec("n12"));
  const KeyHandle k14 = pipeline.add_key(large.spec("n14"));
  std::vector<std::pair<const GpuCircuit*, Submission>> submitted;
  for (std::uint64_t i = 0; i < 12; ++i) {
    const GpuCircuit& c = i % 2 == 0 ? small : large;
    submitted.emplace_back(&c, pipeline.submit(gpu_job(c, i % 2 == 0 ? k12 : k14, i)));
  }
  for (auto& [c, s] : submitted) {
    const JobResult r = await(s);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(r.verified);
    CHECK(r.gpu >= 0);
    CHECK(verifies(*c, r));
  }
  pipeline.drain();
  PipelineStats s = pipeline.stats();
  CHECK(s.proofs == 12);
  CHECK(s.pool.slots_out == 0);
  REQUIRE(s.gpus.size() >= 1);
  CHECK(s.gpus[0].device_slots_in_use == 0);
  // Every job's copy and compute are on the trace, on the GPU's streams, on the host clock.
  const trace::Snapshot snapshot = recorder(pipeline).snapshot();
  const auto h2d = snapshot.find_stage("h2d");
  const auto ntt = snapshot.find_stage("ntt");
  const auto msm = snapshot.find_stage("msm");
  REQUIRE(h2d);
  REQUIRE(ntt);
  REQUIRE(msm);
  std::size_t copies = 0, hs = 0, msms = 0;
  double longest_msm_s = 0;
  for (const trace::Span& span : snapshot.spans) {
    if (snapshot.track(span.track).kind != trace::TrackKind::cuda_stream) continue;
    CHECK(span.end_ns >= span.begin_ns);
    copies += span.stage == *h2d;
    hs += span.stage == *ntt;
    msms += span.stage == *msm;
    if (span.stage == *msm)
      longest_msm_s = std::max(longest_msm_s, 1e-9 * double(span.end_ns - span.begin_ns));
  }
  // A GPU is occupied from a job's copy to its results: at least one job's MSMs, at most the test's time.
  const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  double occupied_s = 0;
  for (const GpuStats& gpu : s.gpus) {
    CHECK(gpu.occupied_seconds <= elapsed_s);
    if (gpu.jobs == 0) CHECK(gpu.occupied_seconds == 0);
    occupied_s += gpu.occupied_seconds;
  }
  CHECK(occupied_s >= longest_msm_s);
  CHECK(copies == 12);
  CHECK(hs == 12);
  CHECK(msms == 12);
  // A measured rate, not a speed requirement (speeds are the benchmarks' business): under compute-sanitizer
  // the copies run below 1 GB/s.
  CHECK(trace::bytes_per_second(snapshot, *h2d) > 0);
  // The report's per-GPU figures: busy over the GPU's own steady state, its copies' rate.
  const RunReport report = make_run_report(snapshot, run_roles(pipeline), s, 12, 1.0);
  REQUIRE(report.gpu_busy_each.size() == s.gpus.size());
  REQUIRE(report.h2d_gbps_each.size() == s.gpus.size());
  std::optional<double> only_rate, only_busy;  // of the GPU that took jobs, when only one did
  std::size_t with_jobs = 0;
  for (std::size_t g = 0; g < s.gpus.size(); ++g) {
    if (s.gpus[g].jobs == 0) continue;
    ++with_jobs;
    REQUIRE(report.h2d_gbps_each[g]);
    CHECK(*report.h2d_gbps_each[g] > 0);
    only_rate = report.h2d_gbps_each[g];
    only_busy = report.gpu_busy_each[g];
    if (report.gpu_busy_each[g]) {
      CHECK(*report.gpu_busy_each[g] > 0);
      CHECK(*report.gpu_busy_each[g] <= 1.0 + 1e-9);
    }
  }
  if (with_jobs == 1) {
    CHECK(*report.h2d_gbps == doctest::Approx(*only_rate));
    CHECK(report.gpu_busy_fraction == only_busy);  // the average of one GPU is that GPU's
  }
  // The GPU's figures reach the metrics page and the memory plan.
  const std::string device = std::to_string(s.gpus[0].device);
  const std::string metrics = metrics_text(s);
  CHECK(metrics.find("proofline_gpu_healthy{gpu=\"" + device + "\"} 1\n") != std::string::npos);
  CHECK(metrics.find("proofline_gpu_keys{gpu=\"" + device + "\"} 2\n") != std::string::npos);
  CHECK(metrics.find("proofline_gpu_info{gpu=\"" + device + "\",name=\"" + s.gpus[0].name + "\"} 1\n") !=
        std::string::npos);
  CHECK(metrics.find("proofline_proof_seconds_count 12\n") != std::string::npos);
  CHECK(metrics.find("proofline_gpu_occupied_seconds_total{gpu=\"" + device + "\"} ") != std::string::npos);
  const std::string plan = memory_plan_text(s);
  CHECK(plan.find("gpu " + device + " (" + s.gpus[0].name + "): VRAM budget " +
                  format_size(s.gpus[0].vram.total)) != std::string::npos);
  CHECK(plan.find("2 keys resident") != std::string::npos);
  pipeline.shutdown();
  CHECK(pipeline.stats().pool.bytes_leased == 0);
}

TEST_CASE("pipeline/gpu/device slots sized by the first key refuse a larger one, naming max_log_n") {
  Config config = gpu_config();
  config.max_log_n = 0;  // the first key's size
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle k12 = pipeline.add_key(gpu_circuit(12).spec("n12"));
  std::string refusal;
  try {
    pipeline.add_key(gpu_circuit(14).spec("n14"));
  } catch (const Error& e) {
    refusal = e.what();
  }
  CHECK(refusal.find("sized for 2^12 rows") != std::string::npos);
  CHECK(refusal.find("max_log_n") != std::string::npos);
  CHECK(refusal.find("--max-log-rows") != std::string::npos);
  // The refusal leaves the pipeline as it was: the first key still proves.
  Submission s = pipeline.submit(gpu_job(gpu_circuit(12), k12, 1));
  const JobResult r = await(s);
  REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
  CHECK(verifies(gpu_circuit(12), r));
  pipeline.shutdown();
}

TEST_CASE("pipeline/gpu/a GPU list naming a GPU that does not exist, or one twice, is refused") {
  const int usable = cuda::device_count();
  TestConfig config = gpu_config();
  config.gpus = {0, usable};
  const std::string missing =
      "GPU " + std::to_string(usable) + " does not exist (" + std::to_string(usable) + " usable)";
  CHECK_THROWS_WITH_AS(make_pipeline(config), doctest::Contains(missing.c_str()), Error);
  config.gpus = {0, 0};
  CHECK_THROWS_WITH_AS(make_pipeline(config), doctest::Contains("GPU 0 is listed twice"), Error);
  config.gpus = {0};
  CHECK(make_pipeline(config).stats().gpus.size() == 1);
}

TEST_CASE("pipeline/gpu/baseline mode proves with the same kernels") {
  const GpuCircuit& c = gpu_circuit(12);
  TestConfig config = gpu_config();
  config.mode = Mode::baseline;
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n12"));
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 6; ++i) submitted.push_back(pipeline.submit(gpu_job(c, key, 40 + i)));
  for (auto& s : submitted) {
    const JobResult r = await(s);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(verifies(c, r));
  }
  pipeline.shutdown();
  const PipelineStats s = pipeline.stats();
  CHECK(s.pool.slot_leases == 0);
  CHECK(s.pool.bytes_leased == 0);
}

TEST_CASE("pipeline/gpu/a fault in a GPU stage fails only that job") {
  const GpuCircuit& c = gpu_circuit(12);
  for (const Stage stage : {Stage::h2d, Stage::ntt, Stage::msm}) {
    CAPTURE(to_string(stage));
    std::mutex mutex;
    JobId victim = 0;
    TestConfig config = gpu_config();
    config.fault_hook = [&](Stage at, JobId id) {
      std::lock_guard lock(mutex);
      if (at == stage && id == victim) throw Error(Errc::cuda, "injected CUDA failure");
    };
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle key = pipeline.add_key(c.spec("n12"));
    std::vector<Submission> submitted;
    {
      std::lock_guard lock(mutex);
      for (std::uint64_t i = 0; i < 5; ++i) {
        submitted.push_back(pipeline.submit(gpu_job(c, key, i)));
        if (i == 2) victim = submitted.back().id;
      }
    }
    for (auto& s : submitted) {
      const JobResult r = await(s);
      if (r.id == victim) {
        REQUIRE(r.error);
        CHECK(r.error->stage == stage);
        CHECK(r.error->code == Errc::cuda);
      } else {
        CHECK_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
        CHECK(verifies(c, r));
      }
    }
    pipeline.drain();
    const PipelineStats s = pipeline.stats();
    CHECK(s.proofs == 4);
    CHECK(s.failed == 1);
    CHECK(s.pool.slots_out == 0);
    CHECK(s.gpus[0].device_slots_in_use == 0);
  }
}

TEST_CASE("pipeline/gpu/device slots bound the jobs on a GPU and the graph runs in two threads") {
  const GpuCircuit& c = gpu_circuit(12);
  std::atomic<Pipeline*> self{nullptr};
  std::atomic<std::size_t> most{0};
  TestConfig config = gpu_config();
  config.max_threads = 2;
  config.device_slots = 2;
  config.fault_hook = [&](Stage, JobId) {
    if (Pipeline* p = self.load()) {
      const std::size_t in_use = p->stats().gpus[0].device_slots_in_use;
      std::size_t seen = most.load();
      while (in_use > seen && !most.compare_exchange_weak(seen, in_use)) {
      }
    }
  };
  Pipeline pipeline = make_pipeline(config);
  self = &pipeline;
  const KeyHandle key = pipeline.add_key(c.spec("n12"));
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 16; ++i) submitted.push_back(pipeline.submit(gpu_job(c, key, 70 + i)));
  for (auto& s : submitted) CHECK(await(s).ok());
  pipeline.drain();
  self = nullptr;
  CHECK(most.load() >= 1);
  CHECK(most.load() <= 2);
}

TEST_CASE("pipeline/gpu/keys that do not fit VRAM together are evicted least recently used first") {
  const GpuCircuit& a = gpu_circuit(12);
  const GpuCircuit& b = gpu_circuit(14);
  // Measure what the device slots and one key take, then give the next pipeline room for the slots and the
  // larger key only.
  std::uint64_t fixed = 0;
  const std::uint64_t a_bytes = a.pk->query_bytes(), b_bytes = b.pk->query_bytes();
  Config plain = gpu_config();
  plain.msm_tables = false;  // the budgets below count the keys' points alone
  plain.device_slots = 4;    // as many under either budget (the automatic count depends on the budget)
  {
    Pipeline probe = make_pipeline(plain);
    probe.add_key(a.spec("a"));
    fixed = probe.stats().gpus[0].vram.used - a_bytes;
  }
  TestConfig config = plain;
  config.vram_budget = fixed + b_bytes + a_bytes / 2;
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle ka = pipeline.add_key(a.spec("a"));
  const KeyHandle kb = pipeline.add_key(b.spec("b"));  // evicts a (idle)
  PipelineStats s = pipeline.stats();
  CHECK(s.gpus[0].keys.evictions >= 1);
  CHECK(s.gpus[0].keys.entries == 1);
  auto ja = pipeline.submit(gpu_job(a, ka, 1));  // a comes back, b (idle) goes
  const JobResult ra = await(ja);
  REQUIRE_MESSAGE(ra.ok(), (ra.error ? ra.error->message : ""));
  CHECK(verifies(a, ra));
  auto jb = pipeline.submit(gpu_job(b, kb, 2));
  const JobResult rb = await(jb);
  REQUIRE_MESSAGE(rb.ok(), (rb.error ? rb.error->message : ""));
  CHECK(verifies(b, rb));
  s = pipeline.stats();
  CHECK(s.gpus[0].keys.loads >= 3);
  CHECK(s.gpus[0].vram.high_water <= *config.vram_budget);
}

constexpr unsigned kAllTables = 5;

/// A config for two keys of `c` whose SRS fit VRAM together with one and a half keys' MSM tables: evicting
/// the first key would give the second all of its tables, and both keys' jobs would upload their SRS (and
/// rebuild tables) again and again. `table_bytes`: one key's tables.
TestConfig two_keys_share_tables(const GpuCircuit& c, std::uint64_t& table_bytes) {
  TestConfig config = gpu_config();
  config.device_slots = 2;  // as many under either budget
  // One key with every table: what the slots, the key and its tables take.
  Pipeline probe = make_pipeline(config);
  probe.add_key(c.spec("probe"));
  const GpuStats s = probe.stats().gpus[0];
  REQUIRE(s.msm_tables == kAllTables);
  table_bytes = s.msm_table_bytes;
  const std::uint64_t key_bytes = s.keys.bytes_resident - table_bytes;  // SRS and constraint system
  const std::uint64_t fixed = s.vram.used - s.keys.bytes_resident;
  config.vram_budget = fixed + 2 * key_bytes + table_bytes + table_bytes / 2;
  return config;
}

/// A pipeline under two_keys_share_tables's budget with its first key, "a", registered (every table).
struct TwoKeys {
  const GpuCircuit& c = gpu_circuit(12);
  std::uint64_t table_bytes = 0;
  TestConfig config = two_keys_share_tables(c, table_bytes);
  Pipeline pipeline = make_pipeline(config);
  KeyHandle a = pipeline.add_key(c.spec("a"));
};

/// After the second of `keys` (two keys of `c`) was registered beside the first: both resident with their
/// tables shared (three uploads: the first key, the second, the first again with fewer tables), and jobs of
/// both in turn prove and verify without uploading either again.
void check_keys_share_tables(Pipeline& pipeline, const GpuCircuit& c, std::array<KeyHandle, 2> keys,
                             std::uint64_t table_bytes, std::uint64_t vram_budget, std::uint64_t seed) {
  GpuStats s = pipeline.stats().gpus[0];
  CHECK(s.keys.entries == 2);
  CHECK(s.keys.loads == 3);
  CHECK(s.msm_tables > kAllTables);  // more than one key's worth, shared
  CHECK(s.msm_tables < 2 * kAllTables);
  CHECK(s.msm_table_bytes <= table_bytes + table_bytes / 2);
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 6; ++i)
    submitted.push_back(pipeline.submit(gpu_job(c, keys[i % 2], seed + i)));
  for (auto& one : submitted) {
    const JobResult r = await(one);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(verifies(c, r));
  }
  s = pipeline.stats().gpus[0];
  CHECK(s.keys.loads == 3);  // jobs of both keys found them resident
  CHECK(s.keys.entries == 2);
  CHECK(s.vram.high_water <= vram_budget);
}

TEST_CASE(
    "pipeline/gpu/a second key shares VRAM with the first: MSM tables give way, neither key is uploaded "
    "again, and they come back when it goes") {
  TwoKeys two;
  auto& [c, table_bytes, config, pipeline, ka] = two;
  REQUIRE(pipeline.stats().gpus[0].msm_tables == kAllTables);
  const KeyHandle kb = pipeline.add_key(c.spec("b"));
  check_keys_share_tables(pipeline, c, {ka, kb}, table_bytes, *config.vram_budget, 500);
  // b goes: a takes its tables back.
  pipeline.remove_key(kb);
  GpuStats s = pipeline.stats().gpus[0];
  CHECK(s.keys.entries == 1);
  CHECK(s.keys.loads == 4);
  CHECK(s.msm_tables == kAllTables);
  CHECK(s.msm_table_bytes == table_bytes);
  auto again = pipeline.submit(gpu_job(c, ka, 510));
  const JobResult r = await(again);
  REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
  CHECK(verifies(c, r));
  CHECK(pipeline.stats().gpus[0].keys.loads == 4);
  // Reports are made after shutdown: the GPU's memory plan outlives its resources.
  s = pipeline.stats().gpus[0];
  pipeline.shutdown();
  const GpuStats after = pipeline.stats().gpus[0];
  CHECK(after.device_slots == 2);
  CHECK(after.msm_tables == s.msm_tables);
  CHECK(after.msm_table_bytes == s.msm_table_bytes);
  CHECK(after.vram.high_water == s.vram.high_water);
}

TEST_CASE(
    "pipeline/gpu/a key in use gives up MSM tables for a new key once its jobs in flight are done, its new "
    "jobs waiting meanwhile") {
  TwoKeys two;
  auto& [c, table_bytes, config, pipeline, ka] = two;
  REQUIRE(pipeline.stats().gpus[0].msm_tables == kAllTables);
  // Jobs of a that wait in synthesis: routed, they hold a's SRS in VRAM while b is registered.
  test_support::Gate synthesis;
  std::vector<Submission> held;
  for (std::uint64_t i = 0; i < 2; ++i) {
    Job job = gpu_job(c, ka, 600 + i);
    job.witness = WitnessCallback{[&c, &synthesis, seed = 600 + i](const WitnessTarget& t) {
      synthesis.wait();
      groth16::synthetic_witness_into(*c.cs, c.options, seed, t.z.unchecked());
    }};
    held.push_back(pipeline.submit(std::move(job)));
  }
  REQUIRE(test_support::eventually([&] { return synthesis.waiting() > 0; }));
  auto adding = std::async(std::launch::async, [&] { return pipeline.add_key(c.spec("b")); });
  CHECK(adding.wait_for(300ms) == std::future_status::timeout);  // a is still in use
  // A job of a submitted now waits at routing (it would keep a's old upload in use), then proves with the
  // new one.
  auto late = std::async(std::launch::async, [&] { return pipeline.submit(gpu_job(c, ka, 610)); });
  synthesis.open();
  const KeyHandle kb = adding.get();
  Submission late_job = late.get();
  for (Submission* one : {&held[0], &held[1], &late_job}) {
    const JobResult r = await(*one);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(verifies(c, r));
  }
  // b is resident beside a (not streamed), and neither is uploaded again for the jobs that follow.
  check_keys_share_tables(pipeline, c, {ka, kb}, table_bytes, *config.vram_budget, 620);
}

TEST_CASE(
    "pipeline/gpu/automatic device slots: eight for small jobs, four where they would take over a 12th of "
    "the budget, fewer under a tight one") {
  const GpuCircuit& c = gpu_circuit(12);
  struct Seen {
    std::size_t slots = 0;
    std::uint64_t used = 0;  // VRAM after add_key: tables, device slots and the key's SRS
    std::uint64_t budget = 0;
  };
  const auto run = [&](std::size_t slots, std::optional<std::uint64_t> vram) {
    TestConfig config = gpu_config();
    config.msm_tables = false;  // the room left beside the slots is the SRS alone
    config.device_slots = slots;
    config.vram_budget = vram;
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle key = pipeline.add_key(c.spec("c"));
    const GpuStats s = pipeline.stats().gpus[0];
    std::vector<Submission> submitted;
    for (std::uint64_t i = 0; i < 5; ++i) submitted.push_back(pipeline.submit(gpu_job(c, key, 100 + i)));
    for (auto& one : submitted) {
      const JobResult r = await(one);
      REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(verifies(c, r));
    }
    return Seen{s.device_slots, s.vram.used, s.vram.total};
  };
  const Seen automatic = run(0, std::nullopt), one = run(1, std::nullopt), two = run(2, std::nullopt);
  CHECK(one.slots == 1);
  const std::uint64_t per_slot = two.used - one.used;  // vectors and MSM scratch
  // 2^12 rows: eight slots take far less than a 12th of a whole GPU's budget.
  REQUIRE(8 * per_slot <= automatic.budget / 12);
  CHECK(automatic.slots == 8);
  CHECK(automatic.used - one.used == 7 * per_slot);
  // Room for five slots, where eight would take over a 12th of the budget: four, as for large jobs.
  const std::uint64_t five = one.used + 4 * per_slot + per_slot / 2;
  REQUIRE(8 * per_slot > five / 12);
  const Seen capped = run(0, five);
  CHECK(capped.slots == 4);
  // Room for two slots next to the key, not three.
  const Seen tight = run(0, two.used + per_slot / 2);
  CHECK(tight.slots == 2);
  CHECK(tight.used == two.used);
}

TEST_CASE(
    "pipeline/gpu/automatic device slots leave room for the first key's MSM tables before a third slot") {
  const GpuCircuit& c = gpu_circuit(12);
  struct Seen {
    std::size_t slots = 0;
    unsigned tables = 0;
    std::uint64_t used = 0;  // VRAM after add_key
    std::uint64_t table_bytes = 0;
  };
  const auto run = [&](std::size_t slots, std::optional<std::uint64_t> vram) {
    TestConfig config = gpu_config();
    config.device_slots = slots;
    config.vram_budget = vram;
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle key = pipeline.add_key(c.spec("c"));
    const GpuStats s = pipeline.stats().gpus[0];
    auto job = pipeline.submit(gpu_job(c, key, 300 + slots));
    const JobResult r = await(job);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(verifies(c, r));
    return Seen{s.device_slots, s.msm_tables, s.vram.used, s.msm_table_bytes};
  };
  const Seen two = run(2, std::nullopt), three = run(3, std::nullopt);
  REQUIRE(two.tables == kAllTables);
  const std::uint64_t per_slot = three.used - two.used;
  // Slots first would take a third slot out of the tables' room and drop tables.
  REQUIRE(two.table_bytes > per_slot / 2);
  const Seen roomy = run(0, two.used + per_slot / 2);
  CHECK(roomy.slots == 2);
  CHECK(roomy.tables == kAllTables);
  CHECK(roomy.used == two.used);
  // Half a slot short of two slots with every table: tables go (a level at a time), two slots stay.
  const Seen tight = run(0, two.used - per_slot / 2);
  CHECK(tight.slots == 2);
  CHECK(tight.tables < kAllTables);
  CHECK(tight.used <= two.used - per_slot / 2);
}

TEST_CASE("pipeline/gpu/the NTT's full tables are charged to VRAM, and left out when the budget is short") {
  const GpuCircuit& c = gpu_circuit(14);
  // Device slots for 2^16 rows (8 MiB of full tables) and the SRS streamed through two 1 MiB buffers, so
  // that a budget can hold the slots and the buffers but not the tables.
  const auto used_after_add_key = [&](bool table, std::optional<std::uint64_t> vram) {
    TestConfig config = gpu_config();
    config.max_log_n = 16;
    config.srs = SrsPlacement::host;
    config.srs_stream_buffer = 1 << 20;
    config.ntt_top_diagonal = table;
    config.device_slots = 4;  // not automatic: a short budget would take a slot off instead
    config.vram_budget = vram;
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle key = pipeline.add_key(c.spec("c"));
    const std::uint64_t used = pipeline.stats().gpus[0].vram.used;
    Submission submitted = pipeline.submit(gpu_job(c, key, 90));
    const JobResult r = await(submitted);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(verifies(c, r));
    return used;
  };
  const std::uint64_t without = used_after_add_key(false, std::nullopt);
  const std::uint64_t with = used_after_add_key(true, std::nullopt);
  // generator7: both directions' top diagonal and H's two coset tables, 2^16 entries each.
  CHECK(with - without == std::uint64_t{128} << 16);
  CHECK(used_after_add_key(true, without + (std::uint64_t{1} << 20)) == without);
}

TEST_CASE(
    "pipeline/gpu/MSM tables: every query's at key load, fewer under a short budget, of a chosen width, "
    "proofs "
    "verify") {
  const GpuCircuit& c = gpu_circuit(14);
  // The GPU's stats after add_key; three jobs proved and verified.
  const auto run = [&](bool tables, std::optional<std::uint64_t> vram, unsigned bits = 0) {
    TestConfig config = gpu_config();
    config.msm_tables = tables;
    config.msm_table_bits = bits;
    config.device_slots = 2;  // not automatic: the same slots under every budget
    config.vram_budget = vram;
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle key = pipeline.add_key(c.spec("c"));
    const GpuStats gpu = pipeline.stats().gpus[0];
    std::vector<Submission> submitted;
    for (std::uint64_t i = 0; i < 3; ++i) submitted.push_back(pipeline.submit(gpu_job(c, key, 70 + i)));
    for (auto& one : submitted) {
      const JobResult r = await(one);
      REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(verifies(c, r));
    }
    CHECK(pipeline.stats().gpus[0].vram.high_water <= gpu.vram.total);
    return gpu;
  };
  const GpuStats none = run(false, std::nullopt);
  CHECK(none.msm_tables == 0);
  CHECK(none.msm_table_bytes == 0);
  const GpuStats all = run(true, std::nullopt);
  CHECK(all.msm_tables == 5);
  // Each table holds a dozen or more multiples of its query's points; they are charged with the key.
  CHECK(all.msm_table_bytes > 8 * c.pk->query_bytes());
  CHECK(all.vram.used - none.vram.used == all.msm_table_bytes);
  // Room for about half the tables: H's and B2's (table level 3). A, B1 and L have none and share one sort
  // of z; B2's table engine plans its windows otherwise and sorts z itself.
  const GpuStats some = run(true, none.vram.used + all.msm_table_bytes / 2);
  CHECK(some.msm_tables >= 1);
  CHECK(some.msm_tables <= 4);
  CHECK(some.msm_table_bytes < all.msm_table_bytes / 2 + 1);
  CHECK(some.vram.used == none.vram.used + some.msm_table_bytes);
  // Tables of 8-bit windows (32 of them, more than the model's at 2^14): more multiples, proofs still verify.
  const GpuStats narrow = run(true, std::nullopt, 8);
  CHECK(narrow.msm_tables == 5);
  CHECK(narrow.msm_table_bytes > all.msm_table_bytes);
}

TEST_CASE("pipeline/gpu/a key larger than the VRAM budget streams its SRS from host memory") {
  const GpuCircuit& a = gpu_circuit(12);
  const GpuCircuit& b = gpu_circuit(14);
  const auto config_with = [](std::optional<std::uint64_t> vram, SrsPlacement srs) {
    TestConfig config = gpu_config();
    config.msm_tables = false;  // the budgets below count the keys' points alone
    config.device_slots = 4;    // as many under either budget (the automatic count depends on the budget)
    config.vram_budget = vram;
    config.srs = srs;
    config.srs_stream_buffer = 1 << 20;  // 10922 G1 / 5461 G2 points a batch: every MSM of b takes 2-4
    return config;
  };
  std::uint64_t fixed = 0;
  {
    Pipeline probe = make_pipeline(config_with(std::nullopt, SrsPlacement::automatic));
    probe.add_key(a.spec("a"));
    fixed = probe.stats().gpus[0].vram.used - a.pk->query_bytes();
  }
  // Room for the slots, a's SRS and the staging buffers, not for b's SRS.
  const std::uint64_t vram = fixed + a.pk->query_bytes() + (3u << 20);
  REQUIRE(b.pk->query_bytes() > vram - fixed);
  {
    Pipeline strict = make_pipeline(config_with(vram, SrsPlacement::device));
    strict.add_key(a.spec("a"));
    CHECK_THROWS_WITH_AS(strict.add_key(b.spec("b")), doctest::Contains("fits no GPU's VRAM budget"), Error);
  }
  for (const Mode mode : {Mode::pinned, Mode::baseline}) {
    CAPTURE(to_string(mode));
    TestConfig config = config_with(vram, SrsPlacement::automatic);
    config.mode = mode;
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle ka = pipeline.add_key(a.spec("a"));  // in VRAM
    const KeyHandle kb = pipeline.add_key(b.spec("b"));  // streamed
    std::vector<std::pair<const GpuCircuit*, Submission>> submitted;
    for (std::uint64_t i = 0; i < 6; ++i) {
      const GpuCircuit& c = i % 3 == 0 ? a : b;
      submitted.emplace_back(&c, pipeline.submit(gpu_job(c, i % 3 == 0 ? ka : kb, 40 + i)));
    }
    for (auto& [c, s] : submitted) {
      const JobResult r = await(s);
      REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(verifies(*c, r));
    }
    pipeline.drain();
    pipeline.shutdown();
    const PipelineStats s = pipeline.stats();  // the streamed counters outlive the GPUs' resources
    CHECK(s.proofs == 6);
    CHECK(s.pool.bytes_leased == 0);
    // Four jobs of b (on whichever GPUs), each streaming every point of b's five queries exactly once.
    std::uint64_t bytes = 0, batches = 0;
    for (const GpuStats& gpu : s.gpus) {
      bytes += gpu.srs_stream_bytes;
      batches += gpu.srs_stream_batches;
      CHECK(gpu.vram.high_water <= vram);
    }
    CHECK(bytes == 4 * b.pk->query_bytes());
    CHECK(batches >= 4 * 10);
  }
}

TEST_CASE(
    "pipeline/gpu/a key from its file streams: mapped through a pinned copy, read into pinned memory in "
    "place") {
  const GpuCircuit& c = gpu_circuit(14);
  const test_support::TempDir dir("proofline-gpu-keyfile");
  const std::filesystem::path path = dir / "key.plkey";
  groth16::write_proving_key(path, *c.pk, c.vk.get());
  std::shared_ptr<memory::PinningBackend> pinning =
      memory::make_backend(memory::PinningKind::cuda_host_register);
  std::uint64_t leased[2] = {};  // after add_key: [mapped, read into pinned memory]
  for (const bool pinned : {false, true}) {
    CAPTURE(pinned);
    groth16::LoadOptions load;  // default: mmap, PROT_READ
    if (pinned) {
      load.mode = groth16::LoadOptions::Mode::read;
      load.allocate = [pinning](std::size_t bytes) -> std::shared_ptr<void> {
        const memory::PinnedBuffer block = pinning->allocate(bytes);
        return {block.data, [pinning, block](void*) { pinning->deallocate(block); }};
      };
    }
    auto loaded = groth16::load_proving_key(path, load);
    TestConfig config = gpu_config();
    config.srs = SrsPlacement::host;
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle key = pipeline.add_key(
        KeySpec{"file", std::make_shared<const groth16::ProvingKey>(std::move(loaded.value.pk)), c.cs, c.vk});
    // A mapped key's points are copied into a pinned pool buffer; points read into pinned memory are used
    // there. (The device slots lease a page or two each for their MSM results, whichever way.)
    leased[pinned] = pipeline.stats().pool.bytes_leased;
    std::vector<Submission> submitted;
    for (std::uint64_t i = 0; i < 3; ++i) submitted.push_back(pipeline.submit(gpu_job(c, key, 80 + i)));
    for (auto& s : submitted) {
      const JobResult r = await(s);
      REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(verifies(c, r));
    }
    pipeline.shutdown();
    CHECK(pipeline.stats().pool.bytes_leased == 0);
    std::uint64_t bytes = 0;
    for (const GpuStats& gpu : pipeline.stats().gpus) bytes += gpu.srs_stream_bytes;
    CHECK(bytes == 3 * c.pk->query_bytes());
  }
  CHECK(leased[1] < c.pk->query_bytes());
  CHECK(leased[0] - leased[1] >= c.pk->query_bytes());
}

TEST_CASE("pipeline/gpu/every GPU takes jobs, with keys in VRAM and streamed (needs two GPUs)") {
  if (cuda::device_count() < 2) {
    MESSAGE("one CUDA device: the multi-GPU case did not run");
    return;
  }
  const GpuCircuit& c = gpu_circuit(14);
  for (const SrsPlacement srs : {SrsPlacement::automatic, SrsPlacement::host}) {
    CAPTURE(to_string(srs));
    Pipeline pipeline = make_pipeline(two_gpu_config(srs));
    const KeyHandle key = pipeline.add_key(c.spec("c"));
    std::vector<Submission> submitted;
    for (std::uint64_t i = 0; i < 16; ++i) submitted.push_back(pipeline.submit(gpu_job(c, key, 60 + i)));
    std::set<int> used;
    for (auto& s : submitted) {
      const JobResult r = await(s);
      REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(verifies(c, r));
      used.insert(r.gpu);
    }
    CHECK(used == std::set<int>{0, 1});
    const PipelineStats s = pipeline.stats();
    REQUIRE(s.gpus.size() == 2);
    CHECK(s.gpus[0].jobs + s.gpus[1].jobs == 16);
    CHECK(s.gpus[0].jobs > 0);
    CHECK(s.gpus[1].jobs > 0);
    if (srs == SrsPlacement::host) {
      CHECK(s.gpus[0].srs_stream_bytes + s.gpus[1].srs_stream_bytes == 16 * c.pk->query_bytes());
    } else {
      CHECK(s.gpus[0].keys.entries == 1);
      CHECK(s.gpus[1].keys.entries == 1);
    }
    pipeline.shutdown();
    CHECK(pipeline.stats().pool.bytes_leased == 0);
  }
}

TEST_CASE("pipeline/gpu/a batch alternating two sizes sends large jobs to both GPUs (needs two GPUs)") {
  if (cuda::device_count() < 2) {
    MESSAGE("one CUDA device: the mixed-size routing case did not run");
    return;
  }
  const GpuCircuit& small = gpu_circuit(12);
  const GpuCircuit& large = gpu_circuit(14);
  // No job finishes before the last is submitted: the routing sees the whole batch bound, as when a batch
  // is submitted at once to busy GPUs. (Counting jobs would send every large one to the first GPU.)
  std::promise<void> submitted_all;
  const std::shared_future<void> go = submitted_all.get_future().share();
  TestConfig config = two_gpu_config(SrsPlacement::automatic);
  config.fault_hook = [go](Stage stage, JobId) {
    if (stage == Stage::synthesis) go.wait();
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle k14 = pipeline.add_key(large.spec("n14"));
  const KeyHandle k12 = pipeline.add_key(small.spec("n12"));
  std::vector<std::pair<bool, Submission>> submitted;
  for (std::uint64_t i = 0; i < 16; ++i) {
    const bool is_large = i % 2 == 0;
    submitted.emplace_back(is_large,
                           pipeline.submit(gpu_job(is_large ? large : small, is_large ? k14 : k12, 120 + i)));
  }
  submitted_all.set_value();
  std::array<int, 2> large_on{}, small_on{};
  for (auto& [is_large, s] : submitted) {
    const JobResult r = await(s);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(verifies(is_large ? large : small, r));
    REQUIRE((r.gpu == 0 || r.gpu == 1));
    ++(is_large ? large_on : small_on)[static_cast<std::size_t>(r.gpu)];
  }
  CHECK(large_on[0] == 4);
  CHECK(large_on[1] == 4);
  CHECK(small_on[0] + small_on[1] == 8);
  pipeline.shutdown();
  CHECK(pipeline.stats().pool.bytes_leased == 0);
}

TEST_CASE("pipeline/gpu/a key placed on a GPU keeps its SRS there and a GPU the pipeline lacks is refused") {
  const GpuCircuit& c = gpu_circuit(12);
  TestConfig config = gpu_config();
  config.gpus = {0};
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle everywhere = pipeline.add_key(c.spec("everywhere"));
  KeySpec placed = c.spec("placed");
  placed.gpus = {0};
  const KeyHandle on_zero = pipeline.add_key(placed);
  const std::uint64_t loads = pipeline.stats().gpus[0].keys.loads;
  CHECK(pipeline.stats().gpus[0].keys.entries == 2);
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 4; ++i)
    submitted.push_back(pipeline.submit(gpu_job(c, i % 2 == 0 ? on_zero : everywhere, 200 + i)));
  for (auto& s : submitted) {
    const JobResult r = await(s);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(verifies(c, r));
    CHECK(r.gpu == 0);
  }
  CHECK(pipeline.stats().gpus[0].keys.loads == loads);  // no upload after registration

  KeySpec elsewhere = c.spec("elsewhere");
  elsewhere.gpus = {cuda::device_count()};
  const std::string missing =
      "GPU " + std::to_string(cuda::device_count()) + " is not one of the pipeline's GPUs (0)";
  CHECK_THROWS_WITH_AS(pipeline.add_key(elsewhere), doctest::Contains(missing.c_str()), Error);
  KeySpec twice = c.spec("twice");
  twice.gpus = {0, 0};
  CHECK_THROWS_WITH_AS(pipeline.add_key(twice), doctest::Contains("GPU 0 is named twice"), Error);
  // The refused keys left nothing behind: their names are free, the GPU holds the two keys.
  CHECK(pipeline.stats().gpus[0].keys.entries == 2);
  pipeline.shutdown();
  CHECK(pipeline.stats().pool.bytes_leased == 0);
}

TEST_CASE("pipeline/gpu/two keys each placed on one GPU: jobs go to their key's GPU (needs two GPUs)") {
  if (cuda::device_count() < 2) {
    MESSAGE("one CUDA device: the two-key placement case did not run");
    return;
  }
  const GpuCircuit& a = gpu_circuit(12);
  const GpuCircuit& b = gpu_circuit(14);
  for (const SrsPlacement srs : {SrsPlacement::automatic, SrsPlacement::host}) {
    CAPTURE(to_string(srs));
    Pipeline pipeline = make_pipeline(two_gpu_config(srs));
    KeySpec spec_a = a.spec("a"), spec_b = b.spec("b");
    spec_a.gpus = {0};
    spec_b.gpus = {1};
    const KeyHandle ka = pipeline.add_key(spec_a), kb = pipeline.add_key(spec_b);
    const PipelineStats before = pipeline.stats();
    std::vector<std::pair<bool, Submission>> submitted;
    for (std::uint64_t i = 0; i < 12; ++i) {
      const bool is_a = i % 3 != 2;
      submitted.emplace_back(is_a, pipeline.submit(gpu_job(is_a ? a : b, is_a ? ka : kb, 90 + i)));
    }
    for (auto& [is_a, s] : submitted) {
      const JobResult r = await(s);
      REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(verifies(is_a ? a : b, r));
      CHECK(r.gpu == (is_a ? 0 : 1));
    }
    const PipelineStats after = pipeline.stats();
    CHECK(after.gpus[0].jobs == 8);
    CHECK(after.gpus[1].jobs == 4);
    for (int g = 0; g < 2; ++g) {
      CHECK(after.gpus[g].keys.loads == before.gpus[g].keys.loads);
      if (srs == SrsPlacement::host) {
        CHECK(after.gpus[g].keys.entries == 0);
      } else {
        CHECK(after.gpus[g].keys.entries == 1);  // its own key alone
      }
    }
    if (srs == SrsPlacement::host) {
      CHECK(after.gpus[0].srs_stream_bytes == 8 * a.pk->query_bytes());
      CHECK(after.gpus[1].srs_stream_bytes == 4 * b.pk->query_bytes());
    }
    pipeline.shutdown();
    CHECK(pipeline.stats().pool.bytes_leased == 0);
  }
}
