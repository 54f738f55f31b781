// Controlling a running pipeline: per-job timeouts (queued and in flight), cancelling queued jobs and witness
// computations (a callback asked to stop), bounded submission (waiting and refusing), priorities, keys taking
// turns, in-order delivery, shutdown with nothing leased, and the whole graph in a task_arena of two threads.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pipeline/helpers.hpp"

using namespace proofline;
using namespace proofline::graph;
using namespace proofline::graph::test;

TEST_CASE("pipeline/control/a job that runs past its timeout fails with the stage it was in") {
  const Circuit& c = circuit(8);
  Gate gate;
  TestConfig config = cpu_config();
  config.fault_hook = [&](Stage stage, JobId) {
    if (stage == Stage::synthesis) gate.wait();
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  Job slow = job(c, key, 1);
  slow.timeout = 50ms;
  auto s = pipeline.submit(std::move(slow));
  // The result comes at the deadline, while the job is still held in synthesis.
  const JobResult r = await(s);
  CHECK(gate.waiting() == 1);
  REQUIRE(r.error);
  CHECK(r.error->code == Errc::timeout);
  CHECK(r.error->stage == Stage::synthesis);
  CHECK(r.error->message.find("50 ms") != std::string::npos);
  gate.open();
  pipeline.drain();  // its slot and token still come home
  const PipelineStats st = pipeline.stats();
  CHECK(st.timed_out == 1);
  CHECK(st.proofs == 0);
  check_idle(pipeline);
}

TEST_CASE(
    "pipeline/control/a job that times out in its witness callback has its result when the callback "
    "returns") {
  const Circuit& c = circuit(8);
  Gate gate;
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  Job slow = job(c, key, 1);
  slow.timeout = 50ms;
  std::atomic<bool> returned{false};
  slow.witness = WitnessCallback{[&](const WitnessTarget& target) {
                                   gate.wait();
                                   groth16::synthetic_witness_into(*c.cs, c.options, 1, target.z.unchecked());
                                   returned = true;
                                 },
                                 WitnessCallback::Fills::witness};
  auto s = pipeline.submit(std::move(slow));
  eventually([&] { return gate.waiting() == 1; });
  // Well past the deadline, the callback still runs: what it captures must stay valid, so no result yet.
  CHECK(s.result.wait_for(300ms) == std::future_status::timeout);
  gate.open();
  const JobResult r = await(s);
  CHECK(returned.load());
  REQUIRE(r.error);
  CHECK(r.error->code == Errc::timeout);
  CHECK(r.error->stage == Stage::synthesis);
  pipeline.drain();
  CHECK(pipeline.stats().timed_out == 1);
  check_idle(pipeline);
}

TEST_CASE(
    "pipeline/control/drain waits for the jobs submitted before it while another thread keeps submitting") {
  const Circuit& c = circuit(8);
  TestConfig config = cpu_config();
  config.queue_capacity = 16;  // the feeder waits on a full queue, so few jobs are left to prove after drain
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> before;
  for (std::uint64_t i = 0; i < 4; ++i) before.push_back(pipeline.submit(job(c, key, i)));
  // The feeder stops only once drain has returned: a drain that waited for its jobs too would never return.
  std::atomic<bool> drained{false};
  std::vector<Submission> during;
  std::thread feeder([&] {
    for (std::uint64_t i = 100; !drained.load(); ++i) during.push_back(pipeline.submit(job(c, key, i)));
  });
  pipeline.drain();
  drained = true;
  for (Submission& s : before) CHECK(s.result.wait_for(0s) == std::future_status::ready);
  feeder.join();
  for (Submission& s : during) CHECK(await(s).ok());
  pipeline.drain();
  check_idle(pipeline);
}

TEST_CASE("pipeline/control/a job that waits past its timeout for a token fails in the queue") {
  const Circuit& c = circuit(8);
  Gate gate;
  std::mutex mutex;
  std::set<JobId> held;
  TestConfig config = holding(gate, mutex, held);
  config.job_timeout = 60ms;  // the default for every job
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  Job first = job(c, key, 1);
  first.timeout = 0ms;  // no limit for the job holding the only slot
  std::vector<Submission> submitted;
  {
    std::lock_guard lock(mutex);
    submitted.push_back(pipeline.submit(std::move(first)));
    held.insert(submitted.back().id);
  }
  submitted.push_back(pipeline.submit(job(c, key, 2)));
  const JobResult queued = await(submitted[1]);
  REQUIRE(queued.error);
  CHECK(queued.error->code == Errc::timeout);
  CHECK(queued.error->stage == Stage::queue);
  gate.open();
  CHECK(await(submitted[0]).ok());
  pipeline.drain();
  check_idle(pipeline);
}

TEST_CASE(
    "pipeline/control/queued jobs can be cancelled and running ones outside their witness callbacks cannot") {
  const Circuit& c = circuit(8);
  Gate gate;
  std::mutex mutex;
  std::set<JobId> held;
  Pipeline pipeline = make_pipeline(holding(gate, mutex, held));
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  {
    std::lock_guard lock(mutex);
    submitted.push_back(pipeline.submit(job(c, key, 0)));
    held.insert(submitted.back().id);
  }
  for (std::uint64_t i = 1; i < 5; ++i) submitted.push_back(pipeline.submit(job(c, key, i)));
  REQUIRE(eventually([&] { return gate.waiting() == 1; }));
  CHECK_FALSE(pipeline.cancel(submitted[0].id));  // in synthesis, held before its witness callback
  CHECK(pipeline.cancel(submitted[2].id));
  CHECK(pipeline.cancel(submitted[4].id));
  CHECK_FALSE(pipeline.cancel(submitted[4].id));  // once
  CHECK_FALSE(pipeline.cancel(987654));           // unknown
  // A cancelled job's result is out at once, before the held job moves.
  const JobResult r2 = await(submitted[2]);
  REQUIRE(r2.error);
  CHECK(r2.error->code == Errc::cancelled);
  CHECK(r2.error->stage == Stage::queue);
  CHECK(pipeline.stats().queue_depth == 2);
  gate.open();
  for (std::size_t i : {0, 1, 3}) CHECK(await(submitted[i]).ok());
  CHECK(await(submitted[4]).error->code == Errc::cancelled);
  pipeline.drain();
  const PipelineStats s = pipeline.stats();
  CHECK(s.cancelled == 2);
  CHECK(s.proofs == 3);
  check_idle(pipeline);
}

namespace {

/// A witness callback that runs until the pipeline asks it to stop, as a circuit's loop of an input's length
/// would (a minute at most, so that a pipeline that never asks fails the test instead of hanging it).
struct Endless {
  std::atomic<int> running{0}, stopped{0};
  Job job(KeyHandle key) {
    Job j;
    j.key = key;
    j.witness =
        WitnessCallback{[this](const WitnessTarget& target) {
                          running.fetch_add(1);
                          const auto give_up = std::chrono::steady_clock::now() + 60s;
                          while (!target.stop_requested() && std::chrono::steady_clock::now() < give_up)
                            std::this_thread::sleep_for(1ms);
                          if (target.stop_requested()) stopped.fetch_add(1);
                          throw std::runtime_error("stopped");
                        },
                        WitnessCallback::Fills::witness};
    return j;
  }
};

}  // namespace

TEST_CASE("pipeline/control/a job whose witness is being computed is asked to stop by cancel and timeouts") {
  const Circuit& c = circuit(8);
  Pipeline pipeline = make_pipeline(cpu_config());
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  Endless endless;
  // cancel(): true while the callback runs, and its result says where it was.
  Submission first = pipeline.submit(endless.job(key));
  REQUIRE(eventually([&] { return endless.running == 1; }));
  CHECK(pipeline.cancel(first.id));
  const JobResult r1 = await(first);
  REQUIRE(r1.error);
  CHECK(r1.error->code == Errc::cancelled);
  CHECK(r1.error->stage == Stage::synthesis);
  CHECK(endless.stopped == 1);
  CHECK_FALSE(pipeline.cancel(first.id));  // done
  // cancel_witnesses(): every job in its callback.
  Submission second = pipeline.submit(endless.job(key));
  REQUIRE(eventually([&] { return endless.running == 2; }));
  CHECK(pipeline.cancel_queued() == 0);
  CHECK(pipeline.cancel_witnesses() == 1);
  CHECK(await(second).error->code == Errc::cancelled);
  CHECK(endless.stopped == 2);
  // A timeout that comes while the callback runs asks it to stop too.
  Job third = endless.job(key);
  third.timeout = 100ms;
  Submission timed = pipeline.submit(std::move(third));
  const JobResult r3 = await(timed);
  REQUIRE(r3.error);
  CHECK(r3.error->code == Errc::timeout);
  CHECK(endless.stopped == 3);
  // The slots came home: a job proves.
  Submission next = pipeline.submit(job(c, key, 4));
  CHECK(await(next).ok());
  pipeline.drain();
  check_idle(pipeline);
}

TEST_CASE("pipeline/control/submit waits and try_submit refuses when the queue is full") {
  const Circuit& c = circuit(8);
  Gate gate;
  std::mutex mutex;
  std::set<JobId> held;
  TestConfig config = holding(gate, mutex, held);
  config.queue_capacity = 2;
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  {
    std::lock_guard lock(mutex);
    submitted.push_back(pipeline.submit(job(c, key, 0)));
    held.insert(submitted.back().id);
  }
  REQUIRE(eventually([&] { return gate.waiting() == 1; }));  // admitted: out of the queue
  submitted.push_back(pipeline.submit(job(c, key, 1)));
  submitted.push_back(pipeline.submit(job(c, key, 2)));
  CHECK(pipeline.stats().queue_depth == 2);
  CHECK_FALSE(pipeline.try_submit(job(c, key, 3)).has_value());
  CHECK(pipeline.stats().refused == 1);

  std::atomic<bool> returned{false};
  auto blocked = std::async(std::launch::async, [&] {
    Submission s = pipeline.submit(job(c, key, 4));
    returned = true;
    return s;
  });
  std::this_thread::sleep_for(100ms);
  CHECK_FALSE(returned.load());  // waiting for room
  gate.open();
  REQUIRE(blocked.wait_for(120s) == std::future_status::ready);
  submitted.push_back(blocked.get());
  for (auto& s : submitted) CHECK(await(s).ok());
  pipeline.drain();
  check_idle(pipeline);
}

TEST_CASE("pipeline/control/a burst of equal-priority jobs is synthesized in submission order") {
  const Circuit& c = circuit(8);
  TestConfig config = cpu_config();
  config.slots = 6;
  config.synthesis_concurrency = 1;  // one synthesis at a time: the order is the one they were handed over in
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::mutex mutex;
  std::vector<std::uint64_t> started;
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 6; ++i) {
    Job j = job(c, key, i);
    j.witness = WitnessCallback{[&, i](const WitnessTarget& target) {
                                  {
                                    std::lock_guard lock(mutex);
                                    started.push_back(i);
                                  }
                                  groth16::synthetic_witness_into(*c.cs, c.options, i, target.z.unchecked());
                                },
                                WitnessCallback::Fills::witness};
    submitted.push_back(pipeline.submit(std::move(j)));
  }
  for (Submission& s : submitted) CHECK(await(s).ok());
  CHECK(started == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("pipeline/control/higher priorities are admitted first") {
  const Circuit& c = circuit(8);
  Gate gate;
  std::mutex mutex;
  std::set<JobId> held;
  std::vector<JobId> order;
  TestConfig config = holding(gate, mutex, held);
  auto hold = config.fault_hook;
  config.fault_hook = [&, hold](Stage stage, JobId id) {
    if (stage == Stage::synthesis) {
      std::lock_guard lock(mutex);
      order.push_back(id);
    }
    hold(stage, id);
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  {
    std::lock_guard lock(mutex);
    submitted.push_back(pipeline.submit(job(c, key, 0)));
    held.insert(submitted.back().id);
  }
  REQUIRE(eventually([&] { return gate.waiting() == 1; }));
  submitted.push_back(pipeline.submit(job(c, key, 1, 0)));
  submitted.push_back(pipeline.submit(job(c, key, 2, 5)));
  submitted.push_back(pipeline.submit(job(c, key, 3, 1)));
  submitted.push_back(pipeline.submit(job(c, key, 4, 5)));
  gate.open();
  for (auto& s : submitted) CHECK(await(s).ok());
  std::lock_guard lock(mutex);
  const std::vector<JobId> expected = {submitted[0].id, submitted[2].id, submitted[4].id, submitted[3].id,
                                       submitted[1].id};
  CHECK(order == expected);
}

namespace {

/// The order in which jobs reach synthesis when, behind a first job held there, `backlog` jobs of a 2^8-row
/// key and then `others` jobs of a 2^10-row key are queued (one slot): each job named by its key's letter.
std::string admission_order(bool keys_take_turns, int backlog, int others) {
  const Circuit& small = circuit(8);
  const Circuit& large = circuit(10);
  Gate gate;
  std::mutex mutex;
  std::set<JobId> held;
  std::map<JobId, char> letters;
  std::string order;
  TestConfig config = holding(gate, mutex, held);
  config.keys_take_turns = keys_take_turns;
  auto hold = config.fault_hook;
  config.fault_hook = [&, hold](Stage stage, JobId id) {
    if (stage == Stage::synthesis) {
      std::lock_guard lock(mutex);
      order += letters.at(id);
    }
    hold(stage, id);
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle a = pipeline.add_key(small.spec("a"));
  const KeyHandle b = pipeline.add_key(large.spec("b"));
  std::vector<Submission> submitted;
  // Under the lock the synthesis hook takes, so that a job reaching synthesis at once finds its letter, and
  // the first job finds itself held.
  const auto submit = [&](const Circuit& c, KeyHandle key, char letter, std::uint64_t seed,
                          bool hold_it = false) {
    std::lock_guard lock(mutex);
    submitted.push_back(pipeline.submit(job(c, key, seed)));
    letters[submitted.back().id] = letter;
    if (hold_it) held.insert(submitted.back().id);
  };
  submit(small, a, 'a', 0, true);
  REQUIRE(eventually([&] { return gate.waiting() == 1; }));
  for (int i = 1; i <= backlog; ++i) submit(small, a, 'a', i);
  for (int i = 0; i < others; ++i) submit(large, b, 'b', 100 + i);
  gate.open();
  for (auto& s : submitted) CHECK(await(s).ok());
  std::lock_guard lock(mutex);
  return order;
}

}  // namespace

TEST_CASE("pipeline/control/keys that take turns share admissions by rows, each key in its own order") {
  // In submission order the other key waits for the whole backlog.
  CHECK(admission_order(false, 8, 3) == "aaaaaaaaabbb");
  // Taking turns, its first job goes next; a 2^10-row job then counts as four 2^8-row ones, a tie going to
  // the job submitted first.
  CHECK(admission_order(true, 8, 3) == "abaaaabaaaab");
}

TEST_CASE("pipeline/control/in-order delivery keeps submission order whatever finishes first") {
  const Circuit& small = circuit(8);
  const Circuit& large = circuit(10);
  std::mutex mutex;
  std::vector<std::uint64_t> seen;
  TestConfig config = cpu_config();
  config.in_order = true;
  config.slots = 4;
  config.on_result = [&](const JobResult& r) {
    std::lock_guard lock(mutex);
    seen.push_back(r.seq);
  };
  // Every other job is slowed in synthesis, so later jobs finish before earlier ones.
  config.fault_hook = [&](Stage stage, JobId id) {
    if (stage == Stage::synthesis && id % 2 == 1) std::this_thread::sleep_for(30ms);
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle k8 = pipeline.add_key(small.spec("n8"));
  const KeyHandle k10 = pipeline.add_key(large.spec("n10"));
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 10; ++i)
    submitted.push_back(pipeline.submit(i % 3 == 0 ? job(large, k10, i) : job(small, k8, i)));
  // A failed job keeps its place too.
  submitted.push_back(
      pipeline.submit(Job{.key = k8, .witness = MemoryWitness{std::make_shared<const std::vector<Fr>>()}}));
  for (auto& s : submitted) await(s);
  pipeline.drain();
  std::lock_guard lock(mutex);
  REQUIRE(seen.size() == submitted.size());
  for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i] == i);
}

TEST_CASE("pipeline/control/shutdown drains or cancels and leaves nothing leased") {
  const Circuit& c = circuit(8);
  SUBCASE("drain") {
    Pipeline pipeline = make_pipeline(cpu_config());
    const KeyHandle key = pipeline.add_key(c.spec("n8"));
    std::vector<Submission> submitted;
    for (std::uint64_t i = 0; i < 6; ++i) submitted.push_back(pipeline.submit(job(c, key, i)));
    pipeline.shutdown(ShutdownMode::drain);
    for (auto& s : submitted) {
      REQUIRE(s.result.wait_for(0s) == std::future_status::ready);
      CHECK(s.result.get().ok());
    }
    const PipelineStats st = pipeline.stats();
    CHECK(st.pool.bytes_leased == 0);
    CHECK(st.pool.slots_out == 0);
    try {
      pipeline.submit(job(c, key, 9));
      FAIL("submit after shutdown");
    } catch (const Error& e) {
      CHECK(e.code() == Errc::cancelled);
    }
    pipeline.shutdown();  // idempotent
    // Keys can still be removed (their memory released) after shutdown, and new ones are refused.
    pipeline.remove_key(key);
    CHECK_THROWS_WITH_AS(pipeline.add_key(c.spec("again")), doctest::Contains("shut down"), Error);
  }
  SUBCASE("cancel") {
    Gate gate;
    std::mutex mutex;
    std::set<JobId> held;
    Pipeline pipeline = make_pipeline(holding(gate, mutex, held));
    const KeyHandle key = pipeline.add_key(c.spec("n8"));
    std::vector<Submission> submitted;
    {
      std::lock_guard lock(mutex);
      submitted.push_back(pipeline.submit(job(c, key, 0)));
      held.insert(submitted.back().id);
    }
    REQUIRE(eventually([&] { return gate.waiting() == 1; }));
    for (std::uint64_t i = 1; i < 5; ++i) submitted.push_back(pipeline.submit(job(c, key, i)));
    auto stopping = std::async(std::launch::async, [&] { pipeline.shutdown(ShutdownMode::cancel); });
    // The queued jobs are cancelled at once; the running one finishes when let go.
    for (std::size_t i = 1; i < 5; ++i) CHECK(await(submitted[i]).error->code == Errc::cancelled);
    gate.open();
    REQUIRE(stopping.wait_for(120s) == std::future_status::ready);
    CHECK(await(submitted[0]).ok());
    const PipelineStats st = pipeline.stats();
    CHECK(st.pool.bytes_leased == 0);
    CHECK(st.cancelled == 4);
  }
}

TEST_CASE("pipeline/control/the whole graph runs in a task arena of two threads") {
  const Circuit& c = circuit(8);
  for (const Mode mode : {Mode::pinned, Mode::baseline}) {
    CAPTURE(to_string(mode));
    TestConfig config = cpu_config();
    config.mode = mode;
    config.max_threads = 2;
    config.synthesis_concurrency = 2;
    config.slots = 3;
    config.verify = true;
    Pipeline pipeline = make_pipeline(config);
    const KeyHandle key = pipeline.add_key(c.spec("n8"));
    std::vector<Submission> submitted;
    for (std::uint64_t i = 0; i < 16; ++i) submitted.push_back(pipeline.submit(job(c, key, i)));
    for (auto& s : submitted) CHECK(await(s, 300s).verified);
    pipeline.drain();
    check_idle(pipeline);
  }
}
