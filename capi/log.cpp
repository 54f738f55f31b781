// pl_set_log_sink: proofline's log lines into the embedding program's own logger (Rust's log, Go's slog,
// Python's logging) instead of stderr, through a C callback.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include <proofline/capi/detail/boundary.hpp>
#include <proofline/util/log.hpp>

namespace proofline::capi {

namespace {

/// Whether this thread is inside the embedder's log callback: pl_set_log_sink from there would wait for the
/// line it is writing.
thread_local bool in_log_sink = false;

/// Held while the sink or the level changes: two switches at once would interleave their steps.
std::mutex switching;

/// The line's text, NUL-terminated, and the callback called as one of the library's callbacks (calls that
/// wait for the pipeline refuse there: the line may be logged while the pipeline holds its locks).
void forward(pl_log_fn sink, void* user_data, log::Level level, std::string_view message) noexcept {
  thread_local std::string line;
  try {
    line.assign(message);
  } catch (...) {
    return;  // out of memory: the line is lost, the caller's thread goes on
  }
  CallbackScope scope;
  const bool outer = std::exchange(in_log_sink, true);
  try {
    sink(static_cast<std::int32_t>(level), line.c_str(), user_data);
  } catch (...) {
    // A C++ embedder's sink that threw: nothing to tell it with but its own log.
  }
  in_log_sink = outer;
}

}  // namespace

}  // namespace proofline::capi

using namespace proofline;
using namespace proofline::capi;

extern "C" {

static_assert(int(log::Level::trace) == PL_LOG_TRACE && int(log::Level::debug) == PL_LOG_DEBUG &&
                  int(log::Level::info) == PL_LOG_INFO && int(log::Level::warn) == PL_LOG_WARN &&
                  int(log::Level::error) == PL_LOG_ERROR && int(log::Level::off) == PL_LOG_OFF,
              "pl_set_log_level casts pl_log_level to log::Level");

PL_API pl_status pl_set_log_sink(pl_log_fn sink, void* user_data, int32_t min_level) {
  return guarded("pl_set_log_sink", [&] {
    if (min_level < PL_LOG_TRACE || min_level > PL_LOG_OFF)
      throw_status(PL_ERR_INVALID_ARGUMENT,
                   "min_level = " + std::to_string(min_level) + " is not a pl_log_level");
    if (in_log_sink)
      throw_status(
          PL_ERR_IN_CALLBACK,
          "pl_set_log_sink cannot be called from the log sink (it waits for the line being written)");
    const auto level = static_cast<log::Level>(min_level);
    std::lock_guard lock(switching);
    // The sink and the level change in two steps: the quieter of the two levels first, so that a line
    // logged between them goes where the old setting or the new one would send it, never to the new sink
    // below its level (stderr at the old TRACE, on the way to OFF) nor to the old one below its own.
    log::set_level(std::max(level, log::level()));
    if (sink == nullptr)
      log::set_sink({});
    else
      log::set_sink([sink, user_data](log::Level at, std::string_view message) {
        forward(sink, user_data, at, message);
      });
    log::set_level(level);
    return PL_OK;
  });
}

PL_API pl_status pl_set_log_level(int32_t level) {
  return guarded("pl_set_log_level", [&] {
    if (level < PL_LOG_TRACE || level > PL_LOG_OFF)
      throw_status(PL_ERR_INVALID_ARGUMENT, "level = " + std::to_string(level) + " is not a pl_log_level");
    // From inside the sink, without the lock: a switch in progress holds it while it waits for that line.
    std::unique_lock lock(switching, std::defer_lock);
    if (!in_log_sink) lock.lock();
    log::set_level(static_cast<log::Level>(level));
    return PL_OK;
  });
}

}  // extern "C"
