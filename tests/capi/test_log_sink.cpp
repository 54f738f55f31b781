// pl_set_log_sink: the library's log lines reach a C callback at the level asked for, with the user pointer;
// once the sink is replaced or removed it is never called again (removal waits for a line being written);
// and a sink that calls back into the library is refused or rerouted instead of deadlocking.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

using namespace std::chrono_literals;

/// What a sink received.
struct Lines {
  std::mutex mutex;
  std::vector<std::pair<std::int32_t, std::string>> lines;

  std::size_t count() {
    std::lock_guard lock(mutex);
    return lines.size();
  }
  /// Whether a line at `level` contains `text`.
  bool has(std::int32_t level, const std::string& text) {
    std::lock_guard lock(mutex);
    for (const auto& [l, line] : lines)
      if (l == level && line.find(text) != std::string::npos) return true;
    return false;
  }
};

void collect(std::int32_t level, const char* message, void* user_data) {
  auto* lines = static_cast<Lines*>(user_data);
  std::lock_guard lock(lines->mutex);
  lines->lines.emplace_back(level, message);
}

/// cpu_config(), which sets the level to PL_LOG_WARN: taken once, before a test sets its own level.
const pl_config& config() {
  static const pl_config config = cpu_config();
  return config;
}

/// A pipeline made and destroyed: it logs one line at PL_LOG_INFO ("pipeline: cpu backend, ...").
void make_pipeline() {
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&config(), &pipeline));
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
}

/// Leaves the process's logging as the other tests expect it: stderr, warnings and errors.
struct RestoreLogging {
  ~RestoreLogging() { pl_set_log_sink(nullptr, nullptr, PL_LOG_WARN); }
};

/// A sink that holds its first line until opened, and counts calls that start after `removed` is set.
struct HeldSink {
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
  std::atomic<bool> entered{false}, removed{false};
  std::atomic<int> calls_after_removal{0};
};

void held(std::int32_t, const char*, void* user_data) {
  auto* h = static_cast<HeldSink*>(user_data);
  if (h->removed) h->calls_after_removal.fetch_add(1);
  h->entered = true;
  std::unique_lock lock(h->mutex);
  h->cv.wait(lock, [&] { return h->open; });
}

/// What calls into the library from inside the sink returned.
struct Reentry {
  std::atomic<int> calls{0};
  std::atomic<int> set_sink{-1}, create{-1}, destroy{-1};
  pl_pipeline* made = nullptr;
};

void reenter(std::int32_t, const char*, void* user_data) {
  auto* r = static_cast<Reentry*>(user_data);
  if (r->calls.fetch_add(1) != 0) return;
  r->set_sink = pl_set_log_sink(nullptr, nullptr, PL_LOG_INFO);
  // It logs a line of its own (to stderr, not back into this sink), and its destroy waits for the pipeline.
  r->create = pl_pipeline_create(&config(), &r->made);
  r->destroy = pl_pipeline_destroy(r->made);
}

}  // namespace

TEST_CASE("capi/log/lines reach the sink at its level with its user pointer and stop once it is removed") {
  RestoreLogging restore;
  config();
  Lines lines;
  PL_REQUIRE_OK(pl_set_log_sink(collect, &lines, PL_LOG_INFO));
  make_pipeline();
  CHECK_MESSAGE(lines.has(PL_LOG_INFO, "pipeline: cpu backend"), lines.count() << " lines");
  {
    // A key registered logs from the caller's thread too.
    Prover p(config());
    CHECK(lines.has(PL_LOG_INFO, "key 'circuit_final'"));
  }
  // Above the level, nothing.
  PL_REQUIRE_OK(pl_set_log_sink(collect, &lines, PL_LOG_WARN));
  std::size_t before = lines.count();
  make_pipeline();
  CHECK(lines.count() == before);
  // Removed: the lines go to stderr, none to the sink.
  PL_REQUIRE_OK(pl_set_log_sink(collect, &lines, PL_LOG_INFO));
  PL_REQUIRE_OK(pl_set_log_sink(nullptr, nullptr, PL_LOG_INFO));
  before = lines.count();
  make_pipeline();
  CHECK(lines.count() == before);
  CHECK(pl_set_log_sink(collect, &lines, PL_LOG_OFF + 1) == PL_ERR_INVALID_ARGUMENT);
  CHECK(pl_set_log_sink(collect, &lines, -1) == PL_ERR_INVALID_ARGUMENT);
}

TEST_CASE("capi/log/removing the sink waits for the line it is writing and it is never called afterwards") {
  RestoreLogging restore;
  config();
  HeldSink h;
  PL_REQUIRE_OK(pl_set_log_sink(held, &h, PL_LOG_INFO));
  std::thread logger([] { make_pipeline(); });  // its first line stays in the sink until opened
  while (!h.entered) std::this_thread::sleep_for(1ms);
  std::atomic<bool> returned{false};
  std::atomic<pl_status> removal{PL_ERR_NOT_READY};
  std::thread remover([&] {
    removal = pl_set_log_sink(nullptr, nullptr, PL_LOG_INFO);
    h.removed = true;
    returned = true;
  });
  std::this_thread::sleep_for(100ms);
  CHECK_MESSAGE(!returned, "the sink was removed while it was writing a line");
  {
    std::lock_guard lock(h.mutex);
    h.open = true;
  }
  h.cv.notify_all();
  remover.join();
  logger.join();
  make_pipeline();  // more lines, after the removal
  CHECK(removal == PL_OK);
  CHECK(h.calls_after_removal == 0);
}

TEST_CASE("capi/log/a sink that calls back into the library is refused or rerouted instead of deadlocking") {
  RestoreLogging restore;
  config();
  Reentry r;
  PL_REQUIRE_OK(pl_set_log_sink(reenter, &r, PL_LOG_INFO));
  make_pipeline();
  PL_REQUIRE_OK(pl_set_log_sink(nullptr, nullptr, PL_LOG_WARN));
  CHECK(r.calls >= 1);
  CHECK(r.set_sink == PL_ERR_IN_CALLBACK);
  CHECK(r.create == PL_OK);                    // its own line went to stderr
  CHECK(r.destroy == PL_ERR_IN_CALLBACK);      // it waits for the pipeline: refused in a callback
  PL_REQUIRE_OK(pl_pipeline_destroy(r.made));  // from outside, it works
}

TEST_CASE("capi/log/switching between a sink and silence sends no line to stderr meanwhile") {
  RestoreLogging restore;
  config();
  // Standard error into a file for the test's length.
  std::FILE* captured = std::tmpfile();
  REQUIRE(captured != nullptr);
  std::fflush(stderr);
  const int saved = ::dup(2);
  REQUIRE(::dup2(::fileno(captured), 2) == 2);
  Lines lines;
  PL_REQUIRE_OK(pl_set_log_sink(nullptr, nullptr, PL_LOG_OFF));
  std::atomic<bool> done{false};
  std::thread logger([&] {
    while (!done) make_pipeline();  // a line at PL_LOG_INFO each
  });
  // Until the sink has seen lines (the switches raced the logger), for at least 400 switches.
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  for (int i = 0; i < 400 || (lines.count() < 20 && std::chrono::steady_clock::now() < give_up); ++i) {
    PL_REQUIRE_OK(pl_set_log_sink(collect, &lines, PL_LOG_TRACE));
    if (i % 8 == 0) std::this_thread::sleep_for(1ms);
    PL_REQUIRE_OK(pl_set_log_sink(nullptr, nullptr, PL_LOG_OFF));
    if (i % 2 == 0) PL_REQUIRE_OK(pl_set_log_level(PL_LOG_OFF));
  }
  done = true;
  logger.join();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::string written;
  std::rewind(captured);
  for (int c; (c = std::fgetc(captured)) != EOF;) written += static_cast<char>(c);
  std::fclose(captured);
  CHECK_MESSAGE(written.empty(), "stderr was off throughout, yet it got: " << written);
  CHECK(lines.count() >= 20);
}

}  // namespace proofline::capi_test
