// Failure behaviour: an error in any stage fails that job only, with a message naming the stage; its token
// and slot come home; the others go on. Bad witnesses (unsatisfying, wrong length, a broken .wtns file) fail
// in synthesis with a clear reason. The trace records how each job ended.
#include <doctest/doctest.h>

#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <set>

#include <proofline/graph/observe.hpp>
#include <proofline/groth16/wtns.hpp>

#include "pipeline/helpers.hpp"

using namespace proofline;
using namespace proofline::graph;
using namespace proofline::graph::test;

namespace {

/// Six jobs; the third fails in `stage` by the fault hook. Checks the failure and that the rest proved.
void fail_one_in(Stage stage, Mode mode) {
  CAPTURE(to_string(stage));
  const Circuit& c = circuit(8);
  std::mutex mutex;
  JobId victim = 0;
  TestConfig config = cpu_config();
  config.mode = mode;
  config.slots = 2;
  config.fault_hook = [&](Stage at, JobId id) {
    // The hook waits for the submitting test to finish arming: no stage can run before the victim is known.
    std::lock_guard lock(mutex);
    if (at == stage && id == victim) throw Error(Errc::io, "injected fault");
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  {
    std::lock_guard lock(mutex);
    for (std::uint64_t i = 0; i < 6; ++i) {
      submitted.push_back(pipeline.submit(job(c, key, i)));
      if (i == 2) victim = submitted.back().id;
    }
  }
  int failed = 0;
  for (auto& s : submitted) {
    const JobResult r = await(s);
    if (r.id == victim) {
      ++failed;
      REQUIRE(r.error);
      CHECK(r.error->stage == stage);
      CHECK(r.error->code == Errc::io);
      CHECK(r.error->message.find(to_string(stage)) == 0);
      CHECK(r.error->message.find("injected fault") != std::string::npos);
      CHECK_FALSE(r.proof);
    } else {
      CHECK_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(verifies(c, r));
    }
  }
  CHECK(failed == 1);
  pipeline.drain();
  const PipelineStats s = pipeline.stats();
  CHECK(s.proofs == 5);
  CHECK(s.failed == 1);
  CHECK(s.tokens == 2);
  check_idle(pipeline);
}

}  // namespace

TEST_CASE("pipeline/faults/a fault in admission fails only that job") {
  fail_one_in(Stage::admission, Mode::pinned);
}
TEST_CASE("pipeline/faults/a fault in synthesis fails only that job") {
  fail_one_in(Stage::synthesis, Mode::pinned);
}
TEST_CASE("pipeline/faults/a fault in ntt fails only that job") {
  fail_one_in(Stage::ntt, Mode::pinned);
}
TEST_CASE("pipeline/faults/a fault in msm fails only that job") {
  fail_one_in(Stage::msm, Mode::pinned);
}
TEST_CASE("pipeline/faults/a fault in release fails only that job") {
  fail_one_in(Stage::release, Mode::pinned);
}
TEST_CASE("pipeline/faults/a fault in the baseline stage fails only that job") {
  fail_one_in(Stage::baseline, Mode::baseline);
}

TEST_CASE("pipeline/faults/running out of memory in a stage is io not a bug of proofline") {
  // Errc::internal says "a bug in proofline" (PL_ERR_INTERNAL); an allocation the system refused is
  // Errc::io, which callers may retry once memory is back.
  const Circuit& c = circuit(8);
  TestConfig config = cpu_config();
  config.fault_hook = [](Stage at, JobId) {
    if (at == Stage::msm) throw std::bad_alloc();
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  Submission s = pipeline.submit(job(c, key, 1));
  const JobResult r = await(s);
  REQUIRE(r.error);
  CHECK(r.error->stage == Stage::msm);
  CHECK(r.error->code == Errc::io);
  CHECK_MESSAGE(r.error->message.find("out of memory") != std::string::npos, r.error->message);
  pipeline.drain();
  check_idle(pipeline);
}

TEST_CASE("pipeline/faults/a witness that does not satisfy the circuit fails in synthesis naming the row") {
  const Circuit& c = circuit(8);
  std::vector<Fr> z = c.witness(3);
  // A private value of 1 is a "one" variable, defined by z_p·z_q = z_o with p, q ones: making it 2 breaks
  // its row whatever the other rows do.
  std::size_t o = z.size() - 1;
  while (!z[o].is_one()) --o;
  REQUIRE(o > c.pk->num_public);
  z[o] += Fr::one();
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  auto bad =
      pipeline.submit(Job{.key = key, .witness = MemoryWitness{std::make_shared<const std::vector<Fr>>(z)}});
  auto good = pipeline.submit(job(c, key, 4));
  const JobResult r = await(bad);
  REQUIRE(r.error);
  CHECK(r.error->stage == Stage::synthesis);
  CHECK(r.error->code == Errc::bad_input);
  CHECK(r.error->message.find("does not satisfy constraint row") != std::string::npos);
  CHECK(await(good).ok());
}

TEST_CASE("pipeline/faults/witnesses of the wrong length or with z0 not 1 fail in synthesis") {
  const Circuit& c = circuit(8);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Fr> shorter = c.witness(3);
  shorter.pop_back();
  std::vector<Fr> no_one = c.witness(3);
  no_one[0] = Fr::from_u64(2);
  auto a = pipeline.submit(
      Job{.key = key, .witness = MemoryWitness{std::make_shared<const std::vector<Fr>>(shorter)}});
  auto b = pipeline.submit(
      Job{.key = key, .witness = MemoryWitness{std::make_shared<const std::vector<Fr>>(no_one)}});
  const JobResult ra = await(a), rb = await(b);
  REQUIRE(ra.error);
  CHECK(ra.error->stage == Stage::synthesis);
  CHECK(ra.error->message.find("values") != std::string::npos);
  REQUIRE(rb.error);
  CHECK(rb.error->message.find("z[0]") != std::string::npos);
  pipeline.drain();
  check_idle(pipeline);
}

TEST_CASE("pipeline/faults/a broken wtns file fails in synthesis naming the file") {
  const Circuit& c = circuit(8);
  TempDir dir;
  const auto good_path = dir.path() / "good.wtns";
  groth16::write_wtns(good_path, c.witness(8));
  const auto truncated = dir.path() / "truncated.wtns";
  const auto missing = dir.path() / "missing.wtns";
  const auto wrong_size = dir.path() / "short.wtns";
  {
    std::ifstream in(good_path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(truncated, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  }
  std::vector<Fr> z = c.witness(8);
  z.pop_back();
  groth16::write_wtns(wrong_size, z);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  for (const auto& path : {truncated, missing, wrong_size}) {
    CAPTURE(path);
    auto s = pipeline.submit(Job{.key = key, .witness = WtnsFile{path}});
    const JobResult r = await(s);
    REQUIRE(r.error);
    CHECK(r.error->stage == Stage::synthesis);
    CHECK(r.error->message.find(path.filename().string()) != std::string::npos);
  }
  auto ok = pipeline.submit(Job{.key = key, .witness = WtnsFile{good_path}});
  CHECK(await(ok).ok());
  pipeline.drain();
  check_idle(pipeline);
}

TEST_CASE("pipeline/faults/a callback that throws fails its job and the rest go on") {
  const Circuit& c = circuit(8);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  Job j{.key = key, .witness = WitnessCallback{[](const WitnessTarget&) {
                      throw std::runtime_error("circuit library bug");
                    }}};
  auto bad = pipeline.submit(std::move(j));
  auto good = pipeline.submit(job(c, key, 1));
  const JobResult r = await(bad);
  REQUIRE(r.error);
  CHECK(r.error->code == Errc::bad_input);  // the caller's failure, not proofline's (internal)
  CHECK(r.error->message.find("the witness callback failed: circuit library bug") != std::string::npos);
  CHECK(await(good).ok());
}

TEST_CASE("pipeline/faults/the trace records each job's wait, time in flight, label and outcome") {
  const Circuit& c = circuit(8);
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
  JobId failing = 0;
  TestConfig config = cpu_config();
  config.slots = 1;
  config.fault_hook = [&](Stage at, JobId id) {
    std::unique_lock lock(mutex);
    if (at == Stage::synthesis) opened.wait(lock, [&] { return open; });  // the others wait in the queue
    if (at == Stage::msm && id == failing) throw Error(Errc::io, "injected fault");
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  Submission first = pipeline.submit(job(c, key, 1));
  Submission second = pipeline.submit(job(c, key, 2));
  Submission third = pipeline.submit(job(c, key, 3));
  {
    std::lock_guard lock(mutex);
    failing = second.id;
  }
  CHECK(pipeline.cancel(third.id));
  {
    std::lock_guard lock(mutex);
    open = true;
  }
  opened.notify_all();
  CHECK(await(first).ok());
  CHECK_FALSE(await(second).ok());
  CHECK(await(third).error->code == Errc::cancelled);
  pipeline.drain();

  const trace::Snapshot snapshot = recorder(pipeline).snapshot();
  CHECK_NOTHROW(snapshot.validate());
  REQUIRE(snapshot.jobs.size() == 3);
  std::map<JobId, trace::JobRecord> by_id;
  for (const trace::JobRecord& record : snapshot.jobs) by_id[record.job] = record;
  const trace::JobRecord& proved = by_id.at(first.id);
  CHECK(proved.outcome == trace::JobOutcome::proved);
  CHECK(proved.label == "seed 1");
  CHECK(proved.key == "n8");
  REQUIRE(proved.admitted_ns);
  CHECK(proved.submitted_ns <= *proved.admitted_ns);
  CHECK(*proved.admitted_ns <= proved.finished_ns);
  const trace::JobRecord& failed = by_id.at(second.id);
  CHECK(failed.outcome == trace::JobOutcome::failed);
  REQUIRE(failed.admitted_ns);
  CHECK(*failed.admitted_ns >= *proved.admitted_ns);  // one slot: it waited for the first
  const trace::JobRecord& cancelled = by_id.at(third.id);
  CHECK(cancelled.outcome == trace::JobOutcome::cancelled);
  CHECK_FALSE(cancelled.admitted_ns);  // it never left the queue
  CHECK(cancelled.label == "seed 3");
}
