// Hooks for tests and fault injection: what a test needs to steer a Pipeline that a production caller never
// sets. A pipeline made with them behaves exactly like one made without, apart from what the hooks do.
#pragma once

#include <chrono>
#include <cstddef>

#include <proofline/graph/config.hpp>

namespace proofline::graph {

class Pipeline;

namespace testing {

struct Hooks {
  /// Called at the start of every stage body for every job that reaches it (see nodes::FaultHook).
  FaultHook fault;
  /// How often the supervisor thread wakes for deadlines, counter samples and GPU upkeep. Admission never
  /// depends on it: tokens are minted by events.
  std::chrono::milliseconds supervisor_period{5};
  /// How many removed keys' names the pipeline remembers (kRemovedKeyNamesKept), smaller to test the bound.
  std::size_t removed_key_names = kRemovedKeyNamesKept;
};

/// A pipeline with hooks; otherwise the same as Pipeline(config).
Pipeline make_pipeline(Config config, Hooks hooks);

}  // namespace testing
}  // namespace proofline::graph
