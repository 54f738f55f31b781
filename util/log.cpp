#include <proofline/util/log.hpp>

#include <mutex>
#include <string>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/scope_guard.hpp>
#include <proofline/util/text.hpp>

namespace proofline {

namespace {

spdlog::level::level_enum to_spdlog(log::Level level) {
  switch (level) {
    case log::Level::trace:
      return spdlog::level::trace;
    case log::Level::debug:
      return spdlog::level::debug;
    case log::Level::info:
      return spdlog::level::info;
    case log::Level::warn:
      return spdlog::level::warn;
    case log::Level::error:
      return spdlog::level::err;
    case log::Level::off:
      return spdlog::level::off;
  }
  return spdlog::level::info;
}

log::Level from_spdlog(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
      return log::Level::trace;
    case spdlog::level::debug:
      return log::Level::debug;
    case spdlog::level::info:
      return log::Level::info;
    case spdlog::level::warn:
      return log::Level::warn;
    case spdlog::level::err:
    case spdlog::level::critical:
      return log::Level::error;
    default:
      return log::Level::off;
  }
}

/// Forwards formatted lines to a user callback.
class CallbackSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit CallbackSink(std::function<void(log::Level, std::string_view)> callback)
      : callback_(std::move(callback)) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    callback_(from_spdlog(msg.level), std::string_view(msg.payload.data(), msg.payload.size()));
  }
  void flush_() override {}

 private:
  std::function<void(log::Level, std::string_view)> callback_;
};

spdlog::sink_ptr default_sink() {
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  sink->set_pattern("[%H:%M:%S.%e] [%n] [%^%l%$] %v");
  return sink;
}

/// The logger's one sink, which forwards each line to the sink set_sink chose, one line at a time: replacing
/// that sink takes the same lock as writing a line, so once set_sink returns the old sink is never called
/// again. A line logged from inside the chosen sink (a callback that called into proofline) goes to stderr
/// instead of into the sink again, where it would wait for itself.
class RoutingSink final : public spdlog::sinks::sink {
 public:
  RoutingSink() : target_(default_sink()), fallback_(default_sink()) {}

  void log(const spdlog::details::log_msg& msg) override {
    if (inside_) {
      fallback_->log(msg);
      return;
    }
    std::lock_guard lock(mutex_);
    // The logger compared the line's level before it got here: a sink and level switched since (a quieter
    // level set, then this sink's target) must not send it where the new level would not.
    if (msg.level < detail::logger().level()) return;
    inside_ = true;
    ScopeGuard leave([] { inside_ = false; });
    target_->log(msg);
  }
  void flush() override {
    if (inside_) return;
    std::lock_guard lock(mutex_);
    target_->flush();
  }
  void set_pattern(const std::string& pattern) override {
    std::lock_guard lock(mutex_);
    target_->set_pattern(pattern);
  }
  void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override {
    std::lock_guard lock(mutex_);
    target_->set_formatter(std::move(formatter));
  }

  /// Waits for a line being written to the old sink, which is dropped after the lock.
  void set_target(spdlog::sink_ptr target) {
    if (inside_)
      throw Error(Errc::invalid_argument,
                  "log::set_sink called from inside the log sink (it would wait for the line being written)");
    std::unique_lock lock(mutex_);
    std::swap(target_, target);
    lock.unlock();
  }

 private:
  static thread_local bool inside_;
  std::mutex mutex_;
  spdlog::sink_ptr target_;
  const spdlog::sink_ptr fallback_;
};

thread_local bool RoutingSink::inside_ = false;

const std::shared_ptr<RoutingSink>& routing_sink() {
  static const auto sink = std::make_shared<RoutingSink>();
  return sink;
}

}  // namespace

namespace detail {

spdlog::logger& logger() {
  static std::shared_ptr<spdlog::logger> instance = [] {
    if (auto existing = spdlog::get(std::string(log::logger_name))) return existing;
    auto created = std::make_shared<spdlog::logger>(std::string(log::logger_name), routing_sink());
    created->set_level(spdlog::level::info);
    spdlog::register_logger(created);
    return created;
  }();
  return *instance;
}

}  // namespace detail

namespace log {

void set_level(Level level) {
  detail::logger().set_level(to_spdlog(level));
}

Level level() {
  return from_spdlog(detail::logger().level());
}

Level parse_level(std::string_view text) {
  if (text == "trace") return Level::trace;
  if (text == "debug") return Level::debug;
  if (text == "info") return Level::info;
  if (text == "warn" || text == "warning") return Level::warn;
  if (text == "error") return Level::error;
  if (text == "off") return Level::off;
  throw Error(Errc::invalid_argument, "unknown log level " + quote_for_message(text, 80, '\'') +
                                          " (use trace, debug, info, warn, error or off)");
}

void set_sink(std::function<void(Level, std::string_view)> sink) {
  spdlog::sink_ptr chosen = sink ? std::make_shared<CallbackSink>(std::move(sink)) : default_sink();
  auto& sinks = detail::logger().sinks();
  if (sinks.size() == 1 && sinks.front() == routing_sink()) {
    routing_sink()->set_target(std::move(chosen));
  } else {
    // A "proofline" logger the host program registered before ours: its sinks are its own to guard.
    sinks.clear();
    sinks.push_back(std::move(chosen));
  }
}

}  // namespace log
}  // namespace proofline
