// What bounds a run, in one line, derived from stage busy times.
//
// Utilisations over the window (each clamped to [0, 1]):
//   gpu       = compute-stream busy time / (gpus * wall)   (per-GPU union of compute-stream spans, summed)
//   h2d       = copy-stream busy time    / (gpus * wall)   (per-GPU union of copy-stream spans, summed)
//   synthesis = time with at least one job in synthesis / wall
//   tokens    = time with at least one job waiting for a pinned-slot token / wall
// The rule, first match wins:
//   1. gpu >= saturated: "GPU compute". The GPU is the bottleneck (the goal).
//   2. max(h2d, synthesis) >= saturated: the larger of "H2D" and "synthesis" (H2D on a tie). The GPU starves
//      behind a saturated feeding stage.
//   3. tokens >= token_wait, or tokens not measured: "budget/tokens". No stage is saturated, yet jobs queue
//      for a pinned slot, so too few slots fit the budget.
//   4. otherwise: "input". Nothing is saturated and nobody queues; jobs arrived slower than the pipeline
//      takes them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <proofline/trace/snapshot.hpp>
#include <proofline/trace/stats.hpp>

namespace proofline::trace {

enum class Bound { gpu_compute, h2d, synthesis, tokens, input };

/// "GPU compute", "H2D", "synthesis", "budget/tokens", "input".
const char* to_string(Bound bound) noexcept;

struct VerdictInput {
  double wall_s = 0;            ///< length of the window the busy times were measured over (> 0)
  double gpu_busy_s = 0;        ///< summed over GPUs
  double h2d_busy_s = 0;        ///< summed over GPUs
  double synthesis_busy_s = 0;  ///< union over jobs and threads
  double token_wait_s = -1;     ///< negative: not measured
  int gpus = 1;
  /// The device is the CPU (the CPU backend: its H and MSM stages stand for the compute streams, and there is
  /// no copy): the reason then speaks of CPU compute and leaves H2D out.
  bool cpu_device = false;
  /// With cpu_device: the share of the worker threads' time spent in any stage (H and MSM, but also
  /// synthesis and the proofs' assembly and verification, which share those threads); negative: not measured.
  double cpu_threads_busy = -1;
};

struct VerdictRule {
  double saturated = 0.90;   ///< a stage at or above this utilisation bounds the run
  double token_wait = 0.25;  ///< jobs queued for tokens at least this fraction of the time
  /// Jobs queue for tokens while synthesis, the busiest stage, runs at least this fraction of the time: the
  /// slots are held by jobs waiting for synthesis, which bounds the run (more slots would not help).
  double busy = 0.75;
};

struct Verdict {
  Bound bound = Bound::input;
  double gpu = 0, h2d = 0, synthesis = 0;
  std::optional<double> tokens;  ///< fraction of time a job waited for a token, when measured
  std::string reason;            ///< one line: "GPU compute: compute streams busy 97% of the steady state"
  std::string detail;            ///< the figures the reason ends with, in brackets: "GPU busy 97%, ..."
};

/// Throws Error(invalid_argument) for wall_s <= 0, gpus < 1 or a negative or NaN busy time.
Verdict verdict(const VerdictInput& input, const VerdictRule& rule = {});

/// Which stages and tracks play which part, to measure a VerdictInput from a snapshot.
struct RunRoles {
  std::vector<StageId> synthesis;         ///< stages that make up synthesis
  std::vector<TrackId> copy_streams;      ///< H2D streams, any GPUs
  std::vector<TrackId> compute_streams;   ///< NTT/MSM streams, any GPUs
  std::optional<TrackId> tokens_waiting;  ///< counter: jobs waiting for a token
};

/// Busy times over `window`: stream unions taken per GPU (TrackInfo::gpu) and summed; gpus = number of
/// distinct GPUs among the compute streams (at least 1).
VerdictInput verdict_input(const Snapshot& snapshot, const RunRoles& roles, Window window);

}  // namespace proofline::trace
