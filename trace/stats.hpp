// Statistics of a run, computed from a Snapshot: time windows, busy time as the union of spans, per-stage
// latency and throughput, and counter summaries. These feed the summary and the report JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <proofline/trace/snapshot.hpp>

namespace proofline::trace {

/// A half-open interval [begin_ns, end_ns) on the recorder's clock.
struct Window {
  std::int64_t begin_ns = 0;
  std::int64_t end_ns = 0;

  std::int64_t length_ns() const noexcept { return end_ns > begin_ns ? end_ns - begin_ns : 0; }
  double seconds() const noexcept { return static_cast<double>(length_ns()) * 1e-9; }
};

/// From the first span's begin to the last span's end; {0, 0} without spans.
Window extent(const Snapshot& snapshot);

/// The steady state of a batch: ramp-up and ramp-down cut off, so that busy fractions describe the pipeline
/// when it is full. Over the spans that carry a job id:
///   - the first job is the one whose earliest span begins first (lower id on a tie); the window begins when
///     that earliest span ends (before it, no later stage has anything to do);
///   - the last job is the one whose latest span ends last (higher id on a tie); the window ends when that
///     latest span begins (after it, that one span runs alone).
/// nullopt with fewer than two jobs or when the window would be empty.
std::optional<Window> steady_state_window(const Snapshot& snapshot);

/// Seconds within `window` during which at least one span on `tracks` (all tracks if empty) of `stages` (all
/// stages if empty) was running: the length of the union, so overlapping spans count once.
double busy_seconds(const Snapshot& snapshot, std::span<const TrackId> tracks, Window window,
                    std::span<const StageId> stages = {});
/// busy_seconds / window.seconds(); 0 for an empty window. For several GPUs, take it per GPU (the union of
/// two GPUs' streams is not a utilisation).
double busy_fraction(const Snapshot& snapshot, std::span<const TrackId> tracks, Window window,
                     std::span<const StageId> stages = {});

struct StageStats {
  StageId stage{};
  std::string name;
  std::size_t count = 0;
  double busy_s = 0;    ///< sum of span durations (CPU-seconds for a stage that runs on several threads)
  double active_s = 0;  ///< union of its spans over all tracks: time during which at least one ran
  double mean_ms = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
  std::uint64_t bytes = 0;
};

/// One entry per stage that has spans (in stage id order), over the spans that begin inside `window` (all
/// spans if none is given). Percentiles as in percentile.hpp.
std::vector<StageStats> stage_stats(const Snapshot& snapshot, std::optional<Window> window = std::nullopt);

/// Throughput of a stage in bytes per second: total bytes / total span time (the sum of durations, so each
/// copy counts at its own rate when several overlap). Spans that begin inside `window`, of GPU `gpu` alone
/// unless any_gpu; 0 without span time.
double bytes_per_second(const Snapshot& snapshot, StageId stage, std::optional<Window> window = std::nullopt,
                        int gpu = Snapshot::any_gpu);

/// Seconds within `window` during which counter `track` was above `threshold`. A counter holds each sample's
/// value until its next sample and counts as 0 before its first sample.
double counter_seconds_above(const Snapshot& snapshot, TrackId track, Window window, double threshold = 0.0);
/// The largest sample of `track` (0 without samples).
double counter_max(const Snapshot& snapshot, TrackId track);

}  // namespace proofline::trace
