// pl_set_log_sink: proofline's log lines into the embedding program's own logger (Rust's log, Go's slog,
// Python's logging) instead of stderr, through a C callback.
#include <cstdint>
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

PL_API pl_status pl_set_log_sink(pl_log_fn sink, void* user_data, int32_t min_level) {
  return guarded("pl_set_log_sink", [&] {
    if (min_level < PL_LOG_TRACE || min_level > PL_LOG_OFF)
      throw_status(PL_ERR_INVALID_ARGUMENT,
                   "min_level = " + std::to_string(min_level) + " is not a pl_log_level");
    if (in_log_sink)
      throw_status(
          PL_ERR_IN_CALLBACK,
          "pl_set_log_sink cannot be called from the log sink (it waits for the line being written)");
    if (sink == nullptr)
      log::set_sink({});
    else
      log::set_sink([sink, user_data](log::Level level, std::string_view message) {
        forward(sink, user_data, level, message);
      });
    log::set_level(static_cast<log::Level>(min_level));
    return PL_OK;
  });
}

}  // extern "C"
