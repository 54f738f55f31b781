#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <proofline/util/error.hpp>
#include <proofline/util/log.hpp>
#include <proofline/util/logging.hpp>

using namespace proofline;

TEST_CASE("util/log/the named logger honours level and a custom sink") {
  std::vector<std::string> lines;
  log::set_sink([&](log::Level, std::string_view message) { lines.emplace_back(message); });
  log::set_level(log::Level::warn);
  PL_LOG_INFO("hidden {}", 1);
  PL_LOG_WARN("shown {}", 2);
  CHECK(lines == std::vector<std::string>{"shown 2"});
  CHECK(spdlog::get(std::string(log::logger_name)) != nullptr);
  log::set_sink({});
  log::set_level(log::Level::info);
}

TEST_CASE("util/log/sinks are replaced while other threads log and no line is lost") {
  // Two counting sinks take turns while four threads log: every line reaches exactly one of them.
  std::atomic<int> first{0}, second{0};
  const auto counting = [](std::atomic<int>& count) {
    return [&count](log::Level, std::string_view) { count.fetch_add(1, std::memory_order_relaxed); };
  };
  log::set_sink(counting(first));
  constexpr int threads = 4, lines_each = 2000;
  std::atomic<bool> logging{true};
  std::vector<std::thread> loggers;
  for (int t = 0; t < threads; ++t)
    loggers.emplace_back([] {
      for (int i = 0; i < lines_each; ++i) PL_LOG_WARN("line {}", i);
    });
  std::thread swapper([&] {
    for (int i = 0; logging.load(); ++i) log::set_sink(counting(i % 2 == 0 ? second : first));
  });
  for (std::thread& t : loggers) t.join();
  logging = false;
  swapper.join();
  log::set_sink({});
  CHECK(first.load() + second.load() == threads * lines_each);
}

TEST_CASE("util/log/parse_level rejects unknown names") {
  CHECK(log::parse_level("debug") == log::Level::debug);
  CHECK_THROWS_AS(log::parse_level("loud"), Error);
}
