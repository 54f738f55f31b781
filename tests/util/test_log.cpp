#include <doctest/doctest.h>

#include <string>
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

TEST_CASE("util/log/parse_level rejects unknown names") {
  CHECK(log::parse_level("debug") == log::Level::debug);
  CHECK_THROWS_AS(log::parse_level("loud"), Error);
}
