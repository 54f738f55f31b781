// A pipeline configuration with the test hooks beside it (graph/testing.hpp), so a test sets
// `config.fault_hook` next to the other fields and make_pipeline builds the pipeline with both.
#pragma once

#include <chrono>

#include <proofline/graph/observe.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/graph/testing.hpp>

namespace proofline::graph::test {

struct TestConfig : Config {
  TestConfig() = default;
  TestConfig(const Config& config) : Config(config) {}  // NOLINT: a plain configuration has no hooks
  FaultHook fault_hook;
  std::chrono::milliseconds supervisor_period{5};
};

inline Pipeline make_pipeline(const TestConfig& config) {
  return testing::make_pipeline(config, testing::Hooks{config.fault_hook, config.supervisor_period});
}

}  // namespace proofline::graph::test
