// The pipeline on the CPU backend proves: every job yields exactly one result, every proof verifies (with
// the groth16 verifier, independently of the pipeline's own self-check), from each witness source, in both
// H conventions and in baseline mode; and afterwards nothing is leased.
#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>

#include <proofline/cuda/device.hpp>
#include <proofline/groth16/wtns.hpp>

#include "pipeline/helpers.hpp"

using namespace proofline;
using namespace proofline::graph;
using namespace proofline::graph::test;

TEST_CASE("pipeline/prove/every job yields exactly one result and every proof verifies") {
  const Circuit& c = circuit(8);
  std::mutex mutex;
  std::map<JobId, int> callbacks;
  TestConfig config = cpu_config();
  config.verify = true;
  config.on_result = [&](const JobResult& r) {
    std::lock_guard lock(mutex);
    ++callbacks[r.id];
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 12; ++i) submitted.push_back(pipeline.submit(job(c, key, 1000 + i)));
  std::set<std::uint64_t> seqs;
  for (auto& s : submitted) {
    const JobResult r = await(s);
    CHECK_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(r.verified);
    CHECK(r.id == s.id);
    CHECK(r.public_inputs.size() == 2);
    CHECK(verifies(c, r));
    seqs.insert(r.seq);
  }
  CHECK(seqs.size() == 12);
  pipeline.drain();
  {
    std::lock_guard lock(mutex);
    CHECK(callbacks.size() == 12);
    for (const auto& [id, count] : callbacks) CHECK(count == 1);
  }
  const PipelineStats s = pipeline.stats();
  CHECK(s.proofs == 12);
  CHECK(s.verified == 12);
  CHECK(s.failed == 0);
  CHECK(s.submitted == 12);
  check_idle(pipeline);
}

TEST_CASE("pipeline/prove/different witnesses give different public inputs and valid proofs") {
  const Circuit& c = circuit(8);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  auto a = pipeline.submit(job(c, key, 1));
  auto b = pipeline.submit(job(c, key, 2));
  const JobResult ra = await(a), rb = await(b);
  REQUIRE(ra.ok());
  REQUIRE(rb.ok());
  CHECK(ra.public_inputs != rb.public_inputs);
  CHECK(verifies(c, ra));
  CHECK(verifies(c, rb));
  // A proof does not verify for the other job's public inputs.
  CHECK_FALSE(groth16::verify(c.pvk, rb.public_inputs, *ra.proof));
}

TEST_CASE(
    "pipeline/prove/a pipeline moves with its keys and jobs, and move assignment shuts the old one down") {
  const Circuit& c = circuit(8);
  Pipeline first = make_pipeline(cpu_config());
  const KeyHandle key = first.add_key(c.spec("n8"));
  auto before = first.submit(job(c, key, 1));
  Pipeline moved(std::move(first));  // jobs in flight move with it
  CHECK(verifies(c, await(before)));
  auto after = moved.submit(job(c, key, 2));
  CHECK(verifies(c, await(after)));

  Pipeline other = make_pipeline(cpu_config());
  const KeyHandle other_key = other.add_key(c.spec("other"));
  auto pending = other.submit(job(c, other_key, 3));
  other = std::move(moved);  // the old pipeline drains: its job still gets its result
  CHECK(await(pending).ok());
  auto last = other.submit(job(c, key, 4));
  CHECK(verifies(c, await(last)));
  other.drain();
  check_idle(other);
}

TEST_CASE("pipeline/prove/a witness in memory and a wtns file both prove") {
  const Circuit& c = circuit(8);
  TempDir dir;
  const std::vector<Fr> z = c.witness(77);
  const auto path = dir.path() / "w.wtns";
  groth16::write_wtns(path, z);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  Job from_memory{.key = key, .witness = MemoryWitness{std::make_shared<const std::vector<Fr>>(z)}};
  Job from_file{.key = key, .witness = WtnsFile{path}};
  auto m = pipeline.submit(std::move(from_memory));
  auto f = pipeline.submit(std::move(from_file));
  const JobResult rm = await(m), rf = await(f);
  REQUIRE_MESSAGE(rm.ok(), (rm.error ? rm.error->message : ""));
  REQUIRE_MESSAGE(rf.ok(), (rf.error ? rf.error->message : ""));
  CHECK(verifies(c, rm));
  CHECK(verifies(c, rf));
  CHECK(rm.public_inputs == std::vector<Fr>(z.begin() + 1, z.begin() + 3));
  CHECK(rf.public_inputs == rm.public_inputs);
}

TEST_CASE("pipeline/prove/a callback that fills a b and c proves without a constraint system") {
  const Circuit& c = circuit(8);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("no-pce", false));
  Job j;
  j.key = key;
  j.witness = WitnessCallback{[&c](const WitnessTarget& t) {
                                groth16::synthetic_witness_into(*c.cs, c.options, 5, t.z.unchecked());
                                // The circuit library's own evaluation, written through the checked spans.
                                std::vector<Fr> a(t.a.size()), b(t.b.size()), cc(t.c.size());
                                std::vector<Fr> z(t.z.unchecked().begin(), t.z.unchecked().end());
                                groth16::evaluate(*c.cs, z, a, b, cc);
                                t.a.write(0, a);
                                t.b.write(0, b);
                                t.c.write(0, cc);
                              },
                              WitnessCallback::Fills::witness_and_abc};
  auto s = pipeline.submit(std::move(j));
  const JobResult r = await(s);
  REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
  CHECK(verifies(c, r));
  // Other sources need the constraint system, and the key has none.
  CHECK_THROWS_AS(pipeline.submit(job(c, key, 6)), Error);
}

TEST_CASE("pipeline/prove/a callback writing past its span fails its job with the span's name") {
  const Circuit& c = circuit(8);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  Job j;
  j.key = key;
  j.witness = WitnessCallback{[](const WitnessTarget& t) { t.z[t.z.size()] = Fr::one(); }};
  auto bad = pipeline.submit(std::move(j));
  auto good = pipeline.submit(job(c, key, 3));
  const JobResult rb = await(bad);
  REQUIRE(rb.error);
  CHECK(rb.error->stage == Stage::synthesis);
  CHECK(rb.error->message.find("z[") != std::string::npos);
  CHECK(await(good).ok());
  pipeline.drain();
  check_idle(pipeline);
}

TEST_CASE("pipeline/prove/the snarkjs H convention proves too") {
  const Circuit& c = circuit(8, HConvention::snarkjs);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("snarkjs"));
  auto s = pipeline.submit(job(c, key, 9));
  const JobResult r = await(s);
  REQUIRE(r.ok());
  CHECK(verifies(c, r));
}

namespace {

/// Proves two jobs of `c` on the CPU backend and says whether both were in their MSM stage at once: the
/// first to arrive waits there (up to `patience`) for the second.
bool msm_stages_overlap(const Circuit& c, std::chrono::milliseconds patience) {
  std::mutex mutex;
  std::condition_variable arrived;
  int in_msm = 0;
  bool overlapped = false;
  TestConfig config = cpu_config();
  config.verify = true;
  config.fault_hook = [&](Stage stage, JobId) {
    if (stage != Stage::msm) return;
    std::unique_lock lock(mutex);
    if (++in_msm >= 2) overlapped = true;
    arrived.notify_all();
    arrived.wait_for(lock, patience, [&] { return overlapped; });
    --in_msm;
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("k"));
  Submission first = pipeline.submit(job(c, key, 1)), second = pipeline.submit(job(c, key, 2));
  CHECK(await(first).verified);
  CHECK(await(second).verified);
  pipeline.shutdown();
  return overlapped;
}

}  // namespace

TEST_CASE("pipeline/prove/small jobs compute side by side on the CPU, larger ones one at a time") {
  // Up to 2^16 rows a job's MSMs cannot keep the threads busy alone.
  CHECK(msm_stages_overlap(circuit(8), std::chrono::seconds(20)));
  CHECK_FALSE(msm_stages_overlap(circuit(17), std::chrono::milliseconds(300)));
}

TEST_CASE("pipeline/prove/baseline mode proves from pageable vectors") {
  const Circuit& c = circuit(8);
  TestConfig config = cpu_config();
  config.mode = Mode::baseline;
  config.verify = true;
  Pipeline pipeline = make_pipeline(config);
  CHECK(pipeline.mode() == Mode::baseline);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 6; ++i) submitted.push_back(pipeline.submit(job(c, key, 50 + i)));
  for (auto& s : submitted) {
    const JobResult r = await(s);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(r.verified);
    CHECK(verifies(c, r));
  }
  pipeline.drain();
  const PipelineStats s = pipeline.stats();
  CHECK(s.pool.slot_leases == 0);  // nothing pinned: the old design's vectors
  CHECK(s.slots_in_flight == 0);
  CHECK(s.host_budget.used == s.host_keys.bytes_resident);
}

TEST_CASE("pipeline/prove/the backend resolves to the CPU without a GPU and refuses CUDA clearly") {
  TestConfig config = cpu_config();
  config.backend = Backend::automatic;
  if (cuda::built_with_cuda() && cuda::device_count() > 0) return;  // a GPU machine: the CUDA suite covers it
  Pipeline pipeline = make_pipeline(config);
  CHECK(pipeline.backend() == Backend::cpu);
  // GPUs named where none is usable: refused, not proved on the CPU with nothing said ...
  config.gpus = {0};
  CHECK_THROWS_WITH_AS(make_pipeline(config), doctest::Contains("GPU 0 is named, but"), Error);
  // ... unless the CPU backend is asked for, which ignores the list.
  config.backend = Backend::cpu;
  CHECK(make_pipeline(config).backend() == Backend::cpu);
  config.gpus.clear();
  config.backend = Backend::cuda;
  try {
    Pipeline refused = make_pipeline(config);
    FAIL("the CUDA backend was built without a device");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::cuda);
    CHECK(std::string(e.what()).find("CUDA") != std::string::npos);
  }
}

TEST_CASE("pipeline/prove/absurd settings are refused when the pipeline is made, naming the setting") {
  TestConfig config = cpu_config();
  config.msm_table_bits = 5;
  CHECK_THROWS_WITH_AS(make_pipeline(config), doctest::Contains("msm_table_bits 5 is outside 8..22"), Error);
  config.msm_table_bits = 0;
  config.device_slots = 65;
  CHECK_THROWS_WITH_AS(make_pipeline(config), doctest::Contains("device_slots 65 is absurd"), Error);
}

TEST_CASE(
    "pipeline/prove/with wipe_slots_between_jobs a job's witness is gone from its slot once it is done") {
  const Circuit& c = circuit(8);
  for (const bool wipe : {false, true}) {
    CAPTURE(wipe);
    TestConfig config = cpu_config();
    config.wipe_slots_between_jobs = wipe;
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle key = pipeline.add_key(c.spec("n8"));
    // Where the witness went: the slot's z, and its a (A·z, then the H scalars).
    std::span<const Fr> z_seen, a_seen;
    Job j = job(c, key, 1);
    auto fill = std::get<WitnessCallback>(j.witness).fill;
    std::get<WitnessCallback>(j.witness).fill = [&, fill](const WitnessTarget& t) {
      fill(t);
      z_seen = t.z.unchecked();
      a_seen = t.a.unchecked();
    };
    Submission s = pipeline.submit(std::move(j));
    REQUIRE(await(s).ok());
    pipeline.drain();
    // The slot is idle in the pool now (still mapped: the budget is far from full, nothing was trimmed).
    REQUIRE(pipeline.stats().pool.bytes_idle > 0);
    const auto nonzero = [](std::span<const Fr> v) {
      return std::count_if(v.begin(), v.end(), [](const Fr& x) { return !x.is_zero(); });
    };
    if (wipe) {
      CHECK(nonzero(z_seen) == 0);
      CHECK(nonzero(a_seen) == 0);
    } else {
      CHECK(nonzero(z_seen) > 0);  // the control: without the option the witness stays until the buffer goes
    }
  }
}
