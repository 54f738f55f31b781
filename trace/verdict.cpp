#include <proofline/trace/verdict.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include <proofline/util/error.hpp>

namespace proofline::trace {

namespace {

double utilisation(double busy_s, double capacity_s) {
  return std::clamp(busy_s / capacity_s, 0.0, 1.0);
}

std::string percent(double fraction) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%.0f%%", fraction * 100.0);
  return buffer;
}

void check_time(double value, const char* what) {
  if (std::isnan(value) || value < 0)
    throw Error(Errc::invalid_argument, std::string("verdict: ") + what + " must be a non-negative time");
}

/// Per-GPU unions of the spans on `tracks`, summed.
double per_gpu_busy(const Snapshot& snapshot, const std::vector<TrackId>& tracks, Window window) {
  std::map<int, std::vector<TrackId>> by_gpu;
  for (TrackId t : tracks) by_gpu[snapshot.track(t).gpu].push_back(t);
  double total = 0;
  for (const auto& [gpu, group] : by_gpu) total += busy_seconds(snapshot, group, window);
  return total;
}

}  // namespace

const char* to_string(Bound bound) noexcept {
  switch (bound) {
    case Bound::gpu_compute:
      return "GPU compute";
    case Bound::h2d:
      return "H2D";
    case Bound::synthesis:
      return "synthesis";
    case Bound::tokens:
      return "budget/tokens";
    case Bound::input:
      return "input";
  }
  return "unknown";
}

Verdict verdict(const VerdictInput& input, const VerdictRule& rule) {
  if (!(input.wall_s > 0)) throw Error(Errc::invalid_argument, "verdict: the wall time must be positive");
  if (input.gpus < 1) throw Error(Errc::invalid_argument, "verdict: need at least one GPU");
  check_time(input.gpu_busy_s, "GPU busy time");
  check_time(input.h2d_busy_s, "H2D busy time");
  check_time(input.synthesis_busy_s, "synthesis busy time");

  Verdict v;
  const double gpu_capacity = input.wall_s * input.gpus;
  v.gpu = utilisation(input.gpu_busy_s, gpu_capacity);
  v.h2d = utilisation(input.h2d_busy_s, gpu_capacity);
  v.synthesis = utilisation(input.synthesis_busy_s, input.wall_s);
  if (input.token_wait_s >= 0) v.tokens = utilisation(input.token_wait_s, input.wall_s);

  const bool cpu = input.cpu_device;
  const double threads = cpu ? utilisation(std::max(input.cpu_threads_busy, 0.0), 1.0) : 0;
  v.detail = (cpu ? "H and MSM busy " + percent(v.gpu) +
                        (input.cpu_threads_busy >= 0 ? ", the worker threads " + percent(threads) : "")
                  : "GPU busy " + percent(v.gpu) + ", H2D " + percent(v.h2d)) +
             ", synthesis " + percent(v.synthesis) +
             (v.tokens ? ", jobs waiting for a token " + percent(*v.tokens) : std::string()) + " of the time";
  const std::string busy = v.detail;
  if (v.gpu >= rule.saturated) {
    v.bound = Bound::gpu_compute;
    v.reason = (cpu ? "CPU compute bound: the H and MSM stages are saturated ("
                    : "GPU compute bound: the compute streams are saturated (") +
               busy + ")";
  } else if (cpu && threads >= rule.saturated) {
    // On the CPU backend every stage shares the worker threads: with small jobs the proofs' assembly and
    // verification (release) can take as much of them as H and MSM, and then the threads, not a stage,
    // bound the run.
    v.bound = Bound::gpu_compute;
    v.reason =
        "CPU bound: the worker threads are saturated, H and MSM sharing them with the other stages "
        "(synthesis, the proofs' assembly and verification) (" +
        busy + ")";
  } else if (std::max(v.h2d, v.synthesis) >= rule.saturated) {
    v.bound = v.h2d >= v.synthesis ? Bound::h2d : Bound::synthesis;
    v.reason = std::string(v.bound == Bound::h2d ? "H2D bound: the copy streams are saturated"
                                                 : "synthesis bound: synthesis never stops") +
               (cpu ? " while the H and MSM stages wait (" : " while the GPU waits (") + busy + ")";
  } else if (v.tokens && *v.tokens >= rule.token_wait && v.synthesis >= rule.busy && v.synthesis > v.gpu &&
             v.synthesis > v.h2d) {
    v.bound = Bound::synthesis;
    v.reason =
        "synthesis bound: jobs queue for a pinned slot while synthesis, the busiest stage, runs most of "
        "the time; the slots wait for it, so more synthesis threads would help, more slots would not (" +
        busy + ")";
  } else if (!v.tokens || *v.tokens >= rule.token_wait) {
    v.bound = Bound::tokens;
    v.reason = std::string("budget/tokens bound: no stage is saturated ") +
               (v.tokens ? "but jobs queue for a pinned slot; more slots (host budget) would help"
                         : "and token waits were not measured; too few pinned slots is the likely cause") +
               " (" + busy + ")";
  } else {
    v.bound = Bound::input;
    v.reason =
        "input bound: no stage is saturated and jobs rarely wait; they arrive slower than the pipeline "
        "takes them (" +
        busy + ")";
  }
  return v;
}

VerdictInput verdict_input(const Snapshot& snapshot, const RunRoles& roles, Window window) {
  VerdictInput input;
  input.wall_s = window.seconds();
  input.gpu_busy_s = per_gpu_busy(snapshot, roles.compute_streams, window);
  input.h2d_busy_s = per_gpu_busy(snapshot, roles.copy_streams, window);
  if (!roles.synthesis.empty()) input.synthesis_busy_s = busy_seconds(snapshot, {}, window, roles.synthesis);
  if (roles.tokens_waiting)
    input.token_wait_s = counter_seconds_above(snapshot, *roles.tokens_waiting, window);
  std::map<int, int> gpus;
  for (TrackId t : roles.compute_streams) gpus[snapshot.track(t).gpu] = 1;
  input.gpus = std::max<int>(1, static_cast<int>(gpus.size()));
  return input;
}

}  // namespace proofline::trace
