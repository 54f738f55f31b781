// What a pipeline holds once its keys are registered and before any job runs: host memory (the budget, the
// resident keys, the pinned slot each job leases and how many jobs the budget lets into flight) and each
// GPU's VRAM (its budget, the keys and their MSM tables, the device slots). batch_prove --plan prints it, so
// that a machine or a fleet worker can be sized for a key before proving with it.
#pragma once

#include <string>

#include <proofline/graph/stats.hpp>

namespace proofline::graph {

/// A few lines for people.
std::string memory_plan_text(const PipelineStats& stats);

/// The same as one JSON object (bytes as integers).
std::string memory_plan_json(const PipelineStats& stats);

}  // namespace proofline::graph
