// Observability of a running Pipeline: its span recorder (every node body and GPU operation), and which
// stages and tracks play which part, for the run report and trace::verdict_input (graph/report.hpp).
#pragma once

#include <proofline/graph/pipeline.hpp>
#include <proofline/trace/recorder.hpp>
#include <proofline/trace/verdict.hpp>

namespace proofline::graph {

/// The pipeline's recorder; valid while the pipeline lives.
trace::Recorder& recorder(Pipeline& pipeline) noexcept;
/// The synthesis stage, the GPUs' copy and compute tracks, the waiting-jobs counter.
trace::RunRoles run_roles(const Pipeline& pipeline);

}  // namespace proofline::graph
