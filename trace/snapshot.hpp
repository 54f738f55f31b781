// A merged, sorted copy of everything a Recorder holds: the input of every export and statistic. A plain
// value: tests and tools may also build one by hand.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/trace/span.hpp>

namespace proofline::trace {

struct Snapshot {
  std::vector<std::string> stages;      ///< indexed by StageId
  std::vector<TrackInfo> tracks;        ///< indexed by TrackId
  std::vector<Span> spans;              ///< sorted by (begin_ns, track)
  std::vector<CounterSample> counters;  ///< sorted by (t_ns, track)
  std::vector<JobRecord> jobs;          ///< sorted by (submitted_ns, job)
  /// Records not here: the oldest, past the recorder's memory limit, or any that memory ran out for.
  std::uint64_t dropped = 0;

  /// Throws Error(internal) for an id that was never registered.
  const std::string& stage_name(StageId id) const;
  const TrackInfo& track(TrackId id) const;

  std::optional<StageId> find_stage(std::string_view name) const;
  std::optional<TrackId> find_track(std::string_view name, int gpu = no_gpu) const;
  /// The tracks of one kind, in id order; gpu filters by GPU unless it is any_gpu.
  static constexpr int any_gpu = -2;
  std::vector<TrackId> tracks_of_kind(TrackKind kind, int gpu = any_gpu) const;

  /// Throws Error(internal) naming the first span or sample whose stage or track id is unknown, whose track
  /// has the wrong kind (a span on a counter track, a sample on a span track) or whose end precedes its
  /// begin, or the first job whose times are out of order.
  void validate() const;
  /// Restores the ordering documented above (after building a snapshot by hand).
  void sort();
};

}  // namespace proofline::trace
