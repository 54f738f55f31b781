// Backpressure from the pinned pool: jobs in flight never exceed the tokens, synthesis waits for tokens when
// slots are fewer than synthesis workers, a burst of jobs ramps synthesis up from one job at a time,
// syntheses that leave the host idle run side by side at once and a stuck one does not hold back the others,
// the token count follows the pool when a key load trims it and when a removal frees room, jobs of different
// sizes mix, and a budget too small for one slot is an error at once.
#include <doctest/doctest.h>

#include <algorithm>

#include <proofline/trace/stats.hpp>
#include <proofline/util/size.hpp>

#include "pipeline/helpers.hpp"

using namespace proofline;
using namespace proofline::graph;
using namespace proofline::graph::test;

namespace {

void raise_to(std::atomic<std::size_t>& max, std::size_t value) {
  std::size_t seen = max.load();
  while (value > seen && !max.compare_exchange_weak(seen, value)) {
  }
}

}  // namespace

TEST_CASE("pipeline/tokens/jobs in flight never exceed the tokens") {
  const Circuit& c = circuit(8);
  std::atomic<Pipeline*> self{nullptr};
  std::atomic<std::size_t> most{0};
  TestConfig config = cpu_config();
  config.slots = 2;
  config.synthesis_concurrency = 3;
  config.fault_hook = [&](Stage, JobId) {
    if (Pipeline* p = self.load()) raise_to(most, p->stats().pool.slots_out);
  };
  Pipeline pipeline = make_pipeline(config);
  self = &pipeline;
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  CHECK(pipeline.stats().token_target == 2);
  prove_and_drain(pipeline, c, key, 10);
  self = nullptr;
  CHECK(most.load() >= 1);
  CHECK(most.load() <= 2);
  const PipelineStats s = pipeline.stats();
  CHECK(s.max_inflight_slots <= 2);
  CHECK(s.tokens == 2);
  CHECK(s.pool.slot_leases == 10);
  // Prewarmed: the two slots were pinned before the first job and reused by every one after.
  CHECK(s.pool.pin_calls_since_warm == 0);
  check_idle(pipeline);
}

TEST_CASE("pipeline/tokens/a batch of fewer jobs than slots pins a slot per job") {
  const Circuit& c = circuit(8);
  TestConfig config = cpu_config();
  config.slots = 8;
  config.expected_jobs = 3;
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  const PipelineStats before = pipeline.stats();
  CHECK(before.token_target == 3);
  // Prewarming pinned three slots' worth, not eight (each slot rounded up to whole pages at most).
  CHECK(before.pool.bytes_pinned >= 3 * before.slot_bytes);
  CHECK(before.pool.bytes_pinned < 4 * before.slot_bytes);
  prove_and_drain(pipeline, c, key, 3);
  const PipelineStats after = pipeline.stats();
  CHECK(after.pool.pin_calls_since_warm == 0);
  CHECK(after.max_inflight_slots <= 3);
  check_idle(pipeline);
}

TEST_CASE("pipeline/tokens/with fewer slots than synthesis workers synthesis waits for tokens") {
  const Circuit& c = circuit(8);
  std::atomic<int> synthesizing{0};
  std::atomic<std::size_t> most{0};
  TestConfig config = cpu_config();
  config.slots = 1;
  config.synthesis_concurrency = 4;
  config.fault_hook = [&](Stage stage, JobId) {
    if (stage != Stage::synthesis) return;
    raise_to(most, static_cast<std::size_t>(++synthesizing));
    std::this_thread::sleep_for(10ms);
    --synthesizing;
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  prove_and_drain(pipeline, c, key, 6);
  CHECK(most.load() == 1);
  CHECK(pipeline.stats().max_inflight_slots == 1);
  // The trace shows the others waiting: the "jobs waiting for a token" counter rose above zero.
  const trace::Snapshot snapshot = recorder(pipeline).snapshot();
  const auto waiting = snapshot.find_track("jobs waiting for a token");
  REQUIRE(waiting);
  CHECK(trace::counter_max(snapshot, *waiting) >= 1);
}

TEST_CASE("pipeline/tokens/a burst synthesizes one job first, then more at once while jobs wait") {
  // The CPU backend is one compute consumer: one permit at the start, up to synthesis_concurrency while a
  // burst waits, and one again once it is gone. Only completions grant permits here: the supervisor, whose
  // idle-host grant reads the process's CPU time (and so the machine's other load), sleeps for an hour.
  const Circuit& c = circuit(8);
  std::mutex mutex;
  std::vector<int> at_start;  // how many jobs synthesized at once as each one began
  std::atomic<int> synthesizing{0};
  TestConfig config = cpu_config();
  config.max_threads = 8;  // room for four sleeping synthesis bodies beside the compute stages
  config.slots = 8;
  config.synthesis_concurrency = 4;
  config.supervisor_period = std::chrono::hours(1);
  config.fault_hook = [&](Stage stage, JobId) {
    if (stage != Stage::synthesis) return;
    {
      std::lock_guard lock(mutex);
      at_start.push_back(++synthesizing);
    }
    std::this_thread::sleep_for(20ms);
    --synthesizing;
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  for (int burst = 0; burst < 2; ++burst) {
    CAPTURE(burst);
    {
      std::lock_guard lock(mutex);
      at_start.clear();
    }
    prove_and_drain(pipeline, c, key, 8, 8 * burst);
    std::lock_guard lock(mutex);
    REQUIRE(at_start.size() == 8);
    // The first job had the threads to itself (its successor began after it finished), ...
    CHECK(at_start[0] == 1);
    CHECK(at_start[1] == 1);
    // ... then the permits grew while the others waited, never past synthesis_concurrency.
    // (Every completion before the fourth saw jobs waiting: 1, 2, 3, 4 permits. How many of them the threads
    // ran at the same instant is up to the scheduler: at least two.)
    const int most = *std::max_element(at_start.begin(), at_start.end());
    CHECK(most >= 2);
    CHECK(most <= 4);
    // The burst over, the permits came back down to one.
    const PipelineStats s = pipeline.stats();
    CHECK(s.max_synthesis_permits == 4);
    CHECK(s.synthesis_permits == 1);
  }
  check_idle(pipeline);
}

TEST_CASE("pipeline/tokens/syntheses that leave the host idle run side by side before any finishes") {
  // A witness source that waits (a serial generator, a file, another process) leaves the threads idle: the
  // supervisor grants permits up to synthesis_concurrency without waiting for a synthesis to finish.
  const Circuit& c = circuit(8);
  std::mutex mutex;
  std::vector<int> at_start;
  std::atomic<int> synthesizing{0}, finished{0};
  TestConfig config = cpu_config();
  config.max_threads = 8;
  config.slots = 6;
  config.synthesis_concurrency = 4;
  config.fault_hook = [&](Stage stage, JobId) {
    if (stage != Stage::synthesis) return;
    {
      std::lock_guard lock(mutex);
      at_start.push_back(finished.load() == 0 ? ++synthesizing : -1);
    }
    std::this_thread::sleep_for(300ms);
    --synthesizing;
    ++finished;
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  prove_and_drain(pipeline, c, key, 6);
  std::lock_guard lock(mutex);
  // The first four began before any synthesis finished, the fourth beside three others.
  REQUIRE(at_start.size() == 6);
  CHECK(at_start[3] == 4);
  CHECK(pipeline.stats().max_synthesis_permits == 4);
}

TEST_CASE("pipeline/tokens/a job stuck in synthesis does not hold back the ones behind it") {
  // One permit on the CPU backend at first: the stuck job leaves the host idle, so the supervisor grants
  // another; without it the others would wait for the stuck job's synthesis, which here waits for them.
  const Circuit& c = circuit(8);
  Gate gate;
  std::atomic<bool> first{true};
  TestConfig config = cpu_config();
  config.slots = 4;
  config.synthesis_concurrency = 2;
  config.fault_hook = [&](Stage stage, JobId) {
    if (stage == Stage::synthesis && first.exchange(false)) gate.wait();
  };
  Pipeline pipeline = make_pipeline(config);
  // Should a check fail, the held job goes on before the pipeline drains at the end of the scope.
  const std::shared_ptr<void> open_at_exit(nullptr, [&gate](void*) { gate.open(); });
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 4; ++i) submitted.push_back(pipeline.submit(job(c, key, i)));
  REQUIRE(eventually([&] { return gate.waiting() == 1; }));
  const auto done = [&] {
    return std::count_if(submitted.begin(), submitted.end(), [](const Submission& s) {
      return s.result.wait_for(0s) == std::future_status::ready;
    });
  };
  // The other three are proved while the first is still held.
  REQUIRE(eventually([&] { return done() == 3; }, 30s));
  CHECK(gate.waiting() == 1);
  gate.open();
  for (auto& s : submitted) CHECK(await(s).ok());
  pipeline.drain();
  CHECK(pipeline.stats().proofs == 4);
  check_idle(pipeline);
}

TEST_CASE("pipeline/tokens/a key load withholds tokens and a removal adds them") {
  const Circuit& small = circuit(8);
  const Circuit& large = circuit(10);
  TestConfig config = cpu_config();
  config.host_budget = 4ull << 20;
  config.slots = 40;
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(small.spec("n8"));
  PipelineStats s = pipeline.stats();
  CHECK(s.token_target == 40);
  CHECK(s.tokens == 40);

  // The 2^10 key takes host memory and has larger slots: the pool holds fewer of them.
  const KeyHandle big = pipeline.add_key(large.spec("n10"));
  s = pipeline.stats();
  const std::size_t target = s.token_target;
  CHECK(target < 40);
  CHECK(target >= 1);
  CHECK(target ==
        std::min<std::size_t>(40, (s.host_budget.total - s.host_keys.bytes_resident) / s.slot_bytes));
  CHECK(s.tokens == 40);  // withheld lazily: as tokens come home

  prove_and_drain(pipeline, small, key, 10);
  s = pipeline.stats();
  // drain() settles the count on the target: surplus tokens still in the buffer are retired too.
  CHECK(s.tokens == target);
  CHECK(s.max_inflight_slots <= 40);

  prove_and_drain(pipeline, small, key, 40, 100);
  CHECK(pipeline.stats().tokens == target);

  // Removing the large key frees its memory and its slot size: the count grows back to the cap.
  pipeline.remove_key(big);
  s = pipeline.stats();
  CHECK(s.token_target == 40);
  CHECK(s.tokens == 40);
  auto after = pipeline.submit(job(small, key, 999));
  CHECK(await(after).ok());
  CHECK_THROWS_AS(pipeline.submit(job(large, big, 1)), Error);
}

TEST_CASE("pipeline/tokens/jobs of different sizes mix") {
  const Circuit& small = circuit(10);
  const Circuit& large = circuit(12);
  TestConfig config = cpu_config();
  config.verify = true;
  config.slots = 3;
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle k10 = pipeline.add_key(small.spec("n10"));
  const KeyHandle k12 = pipeline.add_key(large.spec("n12"));
  std::vector<std::pair<const Circuit*, Submission>> submitted;
  for (std::uint64_t i = 0; i < 8; ++i) {
    const Circuit& c = i % 2 == 0 ? small : large;
    submitted.emplace_back(&c, pipeline.submit(job(c, i % 2 == 0 ? k10 : k12, 10 + i)));
  }
  for (auto& [c, s] : submitted) {
    const JobResult r = await(s);
    REQUIRE_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
    CHECK(r.verified);
    CHECK(verifies(*c, r));
  }
  pipeline.drain();
  const PipelineStats s = pipeline.stats();
  CHECK(s.pool.slot_leases == 8);
  CHECK(s.max_inflight_slots <= 3);
  CHECK(s.slot_bytes == 4 * (std::uint64_t{1} << 12) * sizeof(Fr) -
                            ((std::uint64_t{1} << 12) - large.pk->num_variables) * sizeof(Fr));
  check_idle(pipeline);
}

TEST_CASE("pipeline/tokens/a budget too small for one slot is a clear error at start") {
  const Circuit& c = circuit(10);
  const std::uint64_t key_bytes = c.pk->query_bytes() + c.cs->size_bytes();
  {
    TestConfig config = cpu_config();
    config.host_budget = key_bytes / 2;
    Pipeline pipeline = make_pipeline(config);
    try {
      pipeline.add_key(c.spec("n10"));
      FAIL("a budget smaller than the key was accepted");
    } catch (const Error& e) {
      CHECK(e.code() == Errc::out_of_budget);
      // What asked for the memory, how much, and what to do.
      const std::string message = e.what();
      CHECK_MESSAGE(
          message.find("key 'n10': its proving key and constraint system take") != std::string::npos,
          message);
      CHECK_MESSAGE(message.find(format_size(key_bytes)) != std::string::npos, message);
      CHECK_MESSAGE(message.find("raise the host budget") != std::string::npos, message);
    }
  }
  TestConfig config = cpu_config();
  config.host_budget = key_bytes + 16 * 1024;  // the key and an eighth of a slot
  Pipeline pipeline = make_pipeline(config);
  try {
    pipeline.add_key(c.spec("n10"));
    FAIL("a budget without room for one slot was accepted");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::out_of_budget);
    const std::string message = e.what();
    CHECK(message.find("pinned slot") != std::string::npos);
    CHECK(message.find("host budget") != std::string::npos);
  }
  // Nothing half-registered stays behind: the budget holds nothing.
  CHECK(pipeline.stats().host_budget.used == 0);
}

TEST_CASE("pipeline/tokens/mixed sizes on a pool of one large slot finish with no timer minting tokens") {
  // The pool holds one 2^14 slot: a 2^14 job's lease fails while a 2^12 job holds memory, and its token is
  // parked. Only events (a slot returned, bytes released) bring it back: with the supervisor asleep for an
  // hour, the batch still finishes.
  const Circuit& small = circuit(12);
  const Circuit& large = circuit(14);
  TestConfig config = cpu_config();
  config.verify = true;
  config.supervisor_period = std::chrono::hours(1);
  Pipeline probe = make_pipeline(config);
  probe.add_key(small.spec("n12"));
  probe.add_key(large.spec("n14"));
  const PipelineStats sized = probe.stats();
  probe.shutdown();
  // Room for the keys and one large slot, not two.
  config.host_budget = sized.host_keys.bytes_resident + sized.slot_bytes + sized.slot_bytes / 2;
  config.prewarm = false;
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle k12 = pipeline.add_key(small.spec("n12"));
  const KeyHandle k14 = pipeline.add_key(large.spec("n14"));
  REQUIRE(pipeline.stats().token_target == 1);
  std::vector<std::pair<const Circuit*, Submission>> submitted;
  for (std::uint64_t i = 0; i < 12; ++i) {
    const bool big = i % 3 != 0;
    submitted.emplace_back(big ? &large : &small,
                           pipeline.submit(job(big ? large : small, big ? k14 : k12, i)));
  }
  for (auto& [c, s] : submitted) {
    const JobResult r = await(s, 120s);
    CHECK(r.ok());
    CHECK(verifies(*c, r));
  }
  pipeline.drain();
  check_idle(pipeline);
  // The tokens minted for the small key's slots were withheld lazily: some leases failed and parked.
  CHECK(pipeline.stats().token_parks >= 1);
}
