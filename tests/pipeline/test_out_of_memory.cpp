// Delivery when memory runs out: the copy of a job's label into its result fails (a replaced operator new,
// support/failing_allocation.hpp, refuses the one allocation of that size), in the release stage and in an
// early delivery (a cancel, a deadline). The job still gets exactly one result, a failure; the results after
// it still come, in order; drain() returns; nothing stays leased.
#include <doctest/doctest.h>

#include <cstdint>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "pipeline/helpers.hpp"
#include "support/failing_allocation.hpp"

using namespace proofline;
using namespace proofline::graph;
using namespace proofline::graph::test;
using test_support::failed_allocations;
using test_support::FailingAllocations;

namespace {

/// A label of a length that nothing else in these tests allocates: a copy of it asks for exactly
/// kLabelAllocation bytes (its characters and the terminator; odd, unlike the vectors of field elements).
constexpr std::size_t kLabelLength = 1236;
constexpr std::size_t kLabelAllocation = kLabelLength + 1;

Job labelled(Job j) {
  j.label = std::string(kLabelLength, 'x');
  return j;
}

/// Results in delivery order, as Config::on_result sees them.
struct Deliveries {
  std::mutex mutex;
  std::vector<std::uint64_t> seqs;

  void note(const JobResult& r) {
    std::lock_guard lock(mutex);
    seqs.push_back(r.seq);
  }
  /// Every one of `count` results, in submission order.
  void check_in_order(std::size_t count) {
    std::lock_guard lock(mutex);
    REQUIRE(seqs.size() == count);
    for (std::size_t i = 0; i < count; ++i) CHECK(seqs[i] == i);
  }
};

}  // namespace

TEST_CASE("pipeline/faults/failing allocations hit one size a bounded number of times, on any thread") {
  constexpr std::size_t size = 4099;
  {
    FailingAllocations failing(size, 2);
    void* other = ::operator new(size + 1);  // another size is served
    ::operator delete(other);
    std::thread([] { CHECK_THROWS_AS(static_cast<void>(::operator new(size)), std::bad_alloc); }).join();
    CHECK(::operator new[](size, std::nothrow) == nullptr);
    void* third = ::operator new(size);  // both failures taken: served again
    ::operator delete(third, size);
    CHECK(failed_allocations() == 2);
  }
  // Disarmed, every form is served (aligned ones aligned).
  void* plain = ::operator new(size);
  void* array = ::operator new[](size, std::nothrow);
  void* aligned = ::operator new (size, std::align_val_t{256});
  CHECK(plain != nullptr);
  CHECK(array != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(aligned) % 256 == 0);
  ::operator delete(plain);
  ::operator delete[](array);
  ::operator delete (aligned, std::align_val_t{256});
  CHECK(failed_allocations() == 2);
}

TEST_CASE("pipeline/faults/a result whose label cannot be copied for want of memory fails, in order") {
  const Circuit& c = circuit(8);
  Deliveries deliveries;
  std::mutex mutex;
  JobId victim = 0;
  TestConfig config = cpu_config();
  config.in_order = true;
  config.slots = 2;
  config.on_result = [&](const JobResult& r) { deliveries.note(r); };
  config.fault_hook = [&](Stage stage, JobId id) {
    // Armed as the victim's release begins: from there, the one allocation of that size is the copy of its
    // label into its result.
    std::lock_guard lock(mutex);
    if (stage == Stage::release && id == victim) test_support::fail_allocations_of(kLabelAllocation);
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  {
    std::lock_guard lock(mutex);  // no stage runs the hook before the victim is known
    for (std::uint64_t i = 0; i < 6; ++i) {
      submitted.push_back(pipeline.submit(i == 2 ? labelled(job(c, key, i)) : job(c, key, i)));
      if (i == 2) victim = submitted.back().id;
    }
  }
  for (auto& s : submitted) {
    const JobResult r = await(s, 60s);
    if (r.id != victim) {
      CHECK_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      CHECK(verifies(c, r));
      continue;
    }
    REQUIRE(r.error);
    CHECK(r.error->code == Errc::io);
    CHECK(r.error->stage == Stage::release);
    CHECK(r.error->message == "release: OOM");
    CHECK(r.label.empty());
    CHECK_FALSE(r.proof);
    CHECK(r.public_inputs.empty());
    CHECK_FALSE(r.verified);
  }
  CHECK(test_support::stop_failing_allocations() == 1);
  pipeline.drain();
  deliveries.check_in_order(submitted.size());
  const PipelineStats s = pipeline.stats();
  CHECK(s.proofs == 5);
  CHECK(s.failed == 1);
  check_idle(pipeline);
}

TEST_CASE("pipeline/faults/a cancel whose result cannot be copied for want of memory still delivers it") {
  const Circuit& c = circuit(8);
  Gate gate;
  Deliveries deliveries;
  std::mutex mutex;
  std::set<JobId> held;
  TestConfig config =
      holding(gate, mutex, held);  // one token: the jobs behind the held one wait in the queue
  config.in_order = true;
  config.on_result = [&](const JobResult& r) { deliveries.note(r); };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  {
    std::lock_guard lock(mutex);
    submitted.push_back(pipeline.submit(job(c, key, 0)));
    held.insert(submitted.back().id);
  }
  REQUIRE(eventually([&] { return gate.waiting() == 1; }));
  for (std::uint64_t i = 1; i < 5; ++i)
    submitted.push_back(pipeline.submit(i == 2 ? labelled(job(c, key, i)) : job(c, key, i)));
  {
    FailingAllocations failing(kLabelAllocation);
    CHECK(pipeline.cancel(submitted[2].id));
    CHECK(failed_allocations() == 1);
  }
  // In order, its result waits for the two before it.
  CHECK(submitted[2].result.wait_for(50ms) == std::future_status::timeout);
  gate.open();
  for (std::size_t i = 0; i < submitted.size(); ++i) {
    const JobResult r = await(submitted[i], 60s);
    if (i != 2) {
      CHECK_MESSAGE(r.ok(), (r.error ? r.error->message : ""));
      continue;
    }
    // A cancel keeps its own error: only the label it could not copy is missing.
    REQUIRE(r.error);
    CHECK(r.error->code == Errc::cancelled);
    CHECK(r.error->stage == Stage::queue);
    CHECK(r.label.empty());
  }
  pipeline.drain();
  deliveries.check_in_order(submitted.size());
  const PipelineStats s = pipeline.stats();
  CHECK(s.proofs == 4);
  CHECK(s.cancelled == 1);
  check_idle(pipeline);
}

TEST_CASE("pipeline/faults/a deadline whose result cannot be copied for want of memory still delivers it") {
  const Circuit& c = circuit(8);
  Gate gate;
  Deliveries deliveries;
  std::mutex mutex;
  JobId victim = 0;
  TestConfig config = cpu_config();
  config.in_order = true;
  config.on_result = [&](const JobResult& r) { deliveries.note(r); };
  config.fault_hook = [&](Stage stage, JobId id) {
    bool hold = false;
    {
      std::lock_guard lock(mutex);
      hold = stage == Stage::synthesis && id == victim;
    }
    if (!hold) return;
    // Held in synthesis past its deadline: the supervisor delivers its result early, copying its label then.
    test_support::fail_allocations_of(kLabelAllocation);
    gate.wait();
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  {
    std::lock_guard lock(mutex);
    for (std::uint64_t i = 0; i < 5; ++i) {
      Job j = i == 1 ? labelled(job(c, key, i)) : job(c, key, i);
      if (i == 1) j.timeout = 500ms;  // long enough for its synthesis to begin (and arm) first
      submitted.push_back(pipeline.submit(std::move(j)));
      if (i == 1) victim = submitted.back().id;
    }
  }
  const JobResult r = await(submitted[1], 60s);  // while it is still held
  CHECK(gate.waiting() == 1);
  CHECK(test_support::stop_failing_allocations() == 1);
  REQUIRE(r.error);
  CHECK(r.error->code == Errc::timeout);
  CHECK(r.error->stage == Stage::synthesis);
  CHECK(r.label.empty());
  gate.open();
  for (std::size_t i = 0; i < submitted.size(); ++i)
    if (i != 1) CHECK(await(submitted[i], 60s).ok());
  pipeline.drain();
  deliveries.check_in_order(submitted.size());
  const PipelineStats s = pipeline.stats();
  CHECK(s.proofs == 4);
  CHECK(s.timed_out == 1);
  check_idle(pipeline);
}
