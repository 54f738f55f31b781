// A standalone SVG picture of a run, for a README or a quick look without Perfetto:
//   - one lane per CUDA stream (grouped by GPU), spans coloured by stage, idle time as grey gaps, the lane's
//     busy share at its right end; every span (or run of spans merged below half a pixel) has a tooltip;
//   - CPU workers either collapsed into one lane that stacks, per stage, how many workers were busy on
//     average in each pixel column, or one lane per worker;
//   - a time axis in seconds (the recorder's clock), a legend of the stages;
//   - beneath, step charts of counter tracks (the pinned pool's leased and idle bytes, jobs waiting for
//     a token).
// No scripts, fonts or stylesheets: it renders the same in a browser, GitHub and an image viewer.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <proofline/trace/snapshot.hpp>
#include <proofline/trace/stats.hpp>

namespace proofline::trace {

enum class CounterUnit { count, bytes };

struct CounterChart {
  std::string title;
  std::vector<TrackId> tracks;  ///< counter tracks; stacked bottom-up in this order when `stacked`
  CounterUnit unit = CounterUnit::count;
  bool stacked = true;  ///< leased + idle = the pool's size; false draws each as its own line from zero
};

struct TimelineOptions {
  std::string title = "proofline run";
  int width = 1200;                ///< pixels, at least 400
  std::optional<Window> window{};  ///< default: from the first to the last span or sample
  bool cpu_workers = true;         ///< draw CPU worker activity
  bool collapse_cpu_workers = true;
  /// Empty: one unstacked chart of every counter track, in bytes when every name contains "bytes".
  std::vector<CounterChart> counter_charts{};
};

/// Validates the snapshot (Error(internal) on unknown ids) and draws it.
void write_timeline_svg(const Snapshot& snapshot, const TimelineOptions& options, std::ostream& out);
/// Same, to a file; throws Error(io) naming the path when it cannot be written.
void write_timeline_svg_file(const Snapshot& snapshot, const TimelineOptions& options,
                             const std::string& path);

}  // namespace proofline::trace
