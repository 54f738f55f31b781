// Once pl_pipeline_shutdown or pl_pipeline_destroy has begun, every later submit and key registration is
// refused with PL_ERR_SHUT_DOWN at once, for every key, even while the shutdown itself still waits behind a
// key release (which holds the pipeline's lifecycle lock while its key's jobs finish); and a submit already
// waiting for room in the queue is woken and refused too.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

using namespace std::chrono_literals;

/// A pipeline with two keys, the first of which has a job held in synthesis by `gate`, and a release of that
/// key waiting for the job (holding the lifecycle lock, shared).
struct HeldRelease {
  explicit HeldRelease(pl_config config) {
    config.slots = 1;
    config.prewarm = 0;
    PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
    PL_REQUIRE_OK(pl_key_add_zkey_file(pipeline, fixture("circuit_final.zkey").c_str(), nullptr, &held));
    pl_key_options named{};
    named.size = sizeof named;
    named.name = "other";
    PL_REQUIRE_OK(pl_key_add_zkey_file(pipeline, fixture("circuit_final.zkey").c_str(), &named, &other));
    PL_REQUIRE_OK(pl_submit_callback(pipeline, held, gated_fill, &gate, PL_FILLS_WITNESS, nullptr, &running));
    gate.wait_entered();
  }
  ~HeldRelease() {
    gate.release();
    if (releaser.joinable()) releaser.join();
    for (pl_job* job : accepted) pl_job_release(job);
    pl_job_release(running);
    pl_key_release(other);
    pl_pipeline_destroy(pipeline);
  }

  /// Starts the release of `held` and returns once it waits in the prover for the running job.
  void start_release() {
    releaser = std::thread([this] { released = pl_key_release(held); });
    std::int32_t curve = 0;
    while (pl_key_curve(held, &curve) == PL_OK) std::this_thread::sleep_for(1ms);  // the handle is taken
    std::this_thread::sleep_for(50ms);  // and the prover waits for the key's job
  }

  /// Submits to `other` (without waiting for room) until a submit is refused, for at most two seconds;
  /// that refusal's status.
  pl_status first_refusal() {
    const auto deadline = std::chrono::steady_clock::now() + 2s;
    pl_job_options options{};
    options.size = sizeof options;
    options.flags = PL_SUBMIT_NO_WAIT;
    while (std::chrono::steady_clock::now() < deadline) {
      pl_job* job = nullptr;
      const pl_status status =
          pl_submit_wtns(pipeline, other, fixture("witness.wtns").c_str(), &options, &job);
      if (status != PL_OK) {
        message = pl_last_error_message();
        return status;
      }
      accepted.push_back(job);
      std::this_thread::sleep_for(20ms);
    }
    return PL_OK;
  }

  /// A key registration's status, if it returns within two seconds (PL_ERR_NOT_READY if not).
  pl_status registration() {
    auto added = std::async(std::launch::async, [this] {
      pl_key_options named{};
      named.size = sizeof named;
      named.name = "late";
      pl_key* late = nullptr;
      const pl_status status =
          pl_key_add_zkey_file(pipeline, fixture("circuit_final.zkey").c_str(), &named, &late);
      if (late != nullptr) pl_key_release(late);
      return status;
    });
    if (added.wait_for(2s) == std::future_status::ready) return added.get();
    late_registration = std::move(added);  // joined when the test ends
    return PL_ERR_NOT_READY;
  }

  pl_pipeline* pipeline = nullptr;
  pl_key *held = nullptr, *other = nullptr;
  Gate gate;
  pl_job* running = nullptr;
  std::thread releaser;
  std::atomic<pl_status> released{PL_ERR_NOT_READY};
  std::vector<pl_job*> accepted;
  std::string message;
  std::future<pl_status> late_registration;
};

}  // namespace

TEST_CASE("capi/shutdown/a draining shutdown behind a key release refuses every later submit at once") {
  HeldRelease h(cpu_config());
  h.start_release();
  std::atomic<bool> began{false};
  std::atomic<pl_status> shut{PL_ERR_NOT_READY};
  std::thread shutter([&] {
    began = true;
    shut = pl_pipeline_shutdown(h.pipeline, PL_SHUTDOWN_DRAIN);
  });
  while (!began) std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(20ms);
  CHECK(h.first_refusal() == PL_ERR_SHUT_DOWN);
  CHECK_MESSAGE(h.accepted.empty(), h.accepted.size() << " submits accepted after the shutdown began");
  CHECK_MESSAGE(h.message.find("shutting down") != std::string::npos, h.message);
  CHECK(h.registration() == PL_ERR_SHUT_DOWN);
  CHECK(shut == PL_ERR_NOT_READY);  // still behind the key release, which waits for the running job
  h.gate.release();
  shutter.join();
  h.releaser.join();
  CHECK(shut == PL_OK);
  CHECK(h.released == PL_OK);
  PL_REQUIRE_OK(pl_job_outcome(h.running));
}

TEST_CASE(
    "capi/shutdown/a destroy behind a key release refuses later submits as shut down until it returns") {
  HeldRelease h(cpu_config());
  h.start_release();
  std::atomic<bool> began{false};
  std::atomic<pl_status> destroyed{PL_ERR_NOT_READY};
  std::thread destroyer([&] {
    began = true;
    destroyed = pl_pipeline_destroy(h.pipeline);
  });
  while (!began) std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(20ms);
  CHECK(h.first_refusal() == PL_ERR_SHUT_DOWN);
  CHECK_MESSAGE(h.accepted.empty(), h.accepted.size() << " submits accepted after the destroy began");
  CHECK(h.registration() == PL_ERR_SHUT_DOWN);
  CHECK(pl_pipeline_destroy(h.pipeline) == PL_ERR_INVALID_HANDLE);  // one destroy at a time
  CHECK(destroyed == PL_ERR_NOT_READY);
  h.gate.release();
  destroyer.join();
  h.releaser.join();
  CHECK(destroyed == PL_OK);
  PL_REQUIRE_OK(pl_job_outcome(h.running));
  // Once destroy has returned, the handle is gone.
  pl_job* late = nullptr;
  CHECK(pl_submit_wtns(h.pipeline, h.other, fixture("witness.wtns").c_str(), nullptr, &late) ==
        PL_ERR_INVALID_HANDLE);
  h.pipeline = nullptr;
}

TEST_CASE("capi/shutdown/a submit waiting for room when the shutdown begins is refused at once") {
  pl_config config = cpu_config();
  config.queue_capacity = 1;
  HeldRelease h(config);
  pl_job* queued = nullptr;  // fills the queue: the running job holds the one slot
  PL_REQUIRE_OK(pl_submit_wtns(h.pipeline, h.held, fixture("witness.wtns").c_str(), nullptr, &queued));
  h.accepted.push_back(queued);
  std::promise<pl_status> waited;
  std::future<pl_status> waiting = waited.get_future();
  pl_job* job = nullptr;
  std::thread submitter([&] {
    waited.set_value(pl_submit_wtns(h.pipeline, h.other, fixture("witness.wtns").c_str(), nullptr, &job));
  });
  CHECK(waiting.wait_for(100ms) == std::future_status::timeout);  // it waits for room
  h.start_release();
  std::thread shutter([&] { pl_pipeline_shutdown(h.pipeline, PL_SHUTDOWN_DRAIN); });
  const bool woke = waiting.wait_for(2s) == std::future_status::ready;
  CHECK_MESSAGE(woke, "the submit still waits for room after the shutdown began");
  h.gate.release();
  submitter.join();
  shutter.join();
  CHECK(waiting.get() == PL_ERR_SHUT_DOWN);
  if (job != nullptr) h.accepted.push_back(job);
  CHECK(pl_job_outcome(queued) == PL_OK);  // queued before the shutdown: drained
}

}  // namespace proofline::capi_test
