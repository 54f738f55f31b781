// pl_pipeline_destroy while other threads hold the pipeline for a moment: another pipeline's completion
// callbacks and a user thread read its metrics as it goes. The destroy waits for those calls and tears the
// pipeline down itself, so no other thread runs its destructor (which logged an error from inside a callback)
// and every later call names the handle as gone.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

/// Warnings and errors the library logged while the test ran.
struct Complaints {
  std::mutex mutex;
  std::vector<std::string> lines;
};

void complain(std::int32_t, const char* message, void* user_data) {
  auto* complaints = static_cast<Complaints*>(user_data);
  std::lock_guard lock(complaints->mutex);
  complaints->lines.emplace_back(message);
}

/// What pipeline B's jobs need to keep reading pipeline A's metrics and submitting the next job.
struct Watchers {
  std::atomic<pl_pipeline*> watched{nullptr};
  pl_pipeline* prover = nullptr;
  pl_key* key = nullptr;
  std::string wtns = fixture("witness.wtns");
  std::atomic<bool> stop{false};
  std::atomic<int> callbacks{0}, reads{0};
};

/// Reads the watched pipeline's metrics a few times, whatever the answer.
void read_watched(Watchers& w) {
  char text[1 << 14];
  for (int i = 0; i < 20; ++i) {
    std::size_t needed = 0;
    if (pl_pipeline_metrics(w.watched.load(), text, sizeof text, &needed) == PL_OK) w.reads.fetch_add(1);
  }
}

void on_complete(pl_job* job, void* user_data) {
  auto& w = *static_cast<Watchers*>(user_data);
  pl_job_release(job);
  read_watched(w);
  w.callbacks.fetch_add(1);
  if (w.stop.load()) return;
  pl_job_options options{};
  options.size = sizeof options;
  options.on_complete = on_complete;
  options.user_data = &w;
  pl_job* next = nullptr;
  pl_submit_wtns(w.prover, w.key, w.wtns.c_str(), &options, &next);
}

}  // namespace

TEST_CASE(
    "capi/destroy/a pipeline read from other threads as it is destroyed is torn down by "
    "pl_pipeline_destroy") {
  Complaints complaints;
  PL_REQUIRE_OK(pl_set_log_sink(complain, &complaints, PL_LOG_WARN));
  {
    Prover b;
    Watchers w;
    w.prover = b.pipeline;
    w.key = b.key;
    pl_config config = cpu_config();
    config.max_threads = 1;
    pl_pipeline* first = nullptr;
    PL_REQUIRE_OK(pl_pipeline_create(&config, &first));
    w.watched.store(first);
    for (int i = 0; i < 2; ++i) {
      pl_job_options options{};
      options.size = sizeof options;
      options.on_complete = on_complete;
      options.user_data = &w;
      pl_job* job = nullptr;
      PL_REQUIRE_OK(pl_submit_wtns(b.pipeline, b.key, w.wtns.c_str(), &options, &job));
    }
    std::thread user([&] {
      while (!w.stop.load()) read_watched(w);
    });
    for (int round = 0; round < 40; ++round) {
      pl_pipeline* fresh = nullptr;
      PL_REQUIRE_OK(pl_pipeline_create(&config, &fresh));
      pl_pipeline* old = w.watched.exchange(fresh);
      PL_REQUIRE_OK(pl_pipeline_destroy(old));
      std::size_t needed = 0;
      CHECK(pl_pipeline_metrics(old, nullptr, 0, &needed) == PL_ERR_INVALID_HANDLE);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    w.stop.store(true);
    user.join();
    PL_REQUIRE_OK(pl_pipeline_drain(b.pipeline));
    PL_REQUIRE_OK(pl_pipeline_destroy(w.watched.load()));
    CHECK(w.callbacks.load() > 0);
    CHECK(w.reads.load() > 0);
  }
  PL_REQUIRE_OK(pl_set_log_sink(nullptr, nullptr, PL_LOG_WARN));
  std::lock_guard lock(complaints.mutex);
  for (const std::string& line : complaints.lines) CHECK_MESSAGE(false, "logged: " << line);
}

}  // namespace proofline::capi_test
