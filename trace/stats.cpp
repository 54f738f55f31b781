#include <proofline/trace/stats.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include <proofline/trace/percentile.hpp>

namespace proofline::trace {

namespace {

template <class Id>
bool selected(std::span<const Id> ids, Id id) {
  return ids.empty() || std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool begins_inside(const Span& span, const std::optional<Window>& window) {
  return !window || (span.begin_ns >= window->begin_ns && span.begin_ns < window->end_ns);
}

/// Length of the union of intervals, which it sorts.
std::int64_t union_length(std::vector<std::pair<std::int64_t, std::int64_t>>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  std::int64_t total = 0;
  std::int64_t cur_begin = 0, cur_end = 0;
  bool open = false;
  for (const auto& [b, e] : intervals) {
    if (open && b <= cur_end) {
      cur_end = std::max(cur_end, e);
      continue;
    }
    if (open) total += cur_end - cur_begin;
    cur_begin = b;
    cur_end = e;
    open = true;
  }
  if (open) total += cur_end - cur_begin;
  return total;
}

}  // namespace

Window extent(const Snapshot& snapshot) {
  if (snapshot.spans.empty()) return {};
  Window w{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()};
  for (const Span& span : snapshot.spans) {
    w.begin_ns = std::min(w.begin_ns, span.begin_ns);
    w.end_ns = std::max(w.end_ns, span.end_ns);
  }
  return w;
}

std::optional<Window> steady_state_window(const Snapshot& snapshot) {
  struct Job {
    const Span* earliest = nullptr;  // begins first
    const Span* latest = nullptr;    // ends last
  };
  std::map<std::uint64_t, Job> jobs;
  for (const Span& span : snapshot.spans) {
    if (span.job == no_job) continue;
    Job& job = jobs[span.job];
    if (job.earliest == nullptr || span.begin_ns < job.earliest->begin_ns ||
        (span.begin_ns == job.earliest->begin_ns && span.end_ns < job.earliest->end_ns))
      job.earliest = &span;
    if (job.latest == nullptr || span.end_ns > job.latest->end_ns ||
        (span.end_ns == job.latest->end_ns && span.begin_ns > job.latest->begin_ns))
      job.latest = &span;
  }
  if (jobs.size() < 2) return std::nullopt;
  const Span* first = nullptr;
  const Span* last = nullptr;
  for (const auto& [id, job] : jobs) {  // ascending ids: strict comparisons keep the lower id first on a tie
    if (first == nullptr || job.earliest->begin_ns < first->begin_ns) first = job.earliest;
    if (last == nullptr || job.latest->end_ns >= last->end_ns) last = job.latest;
  }
  const Window window{first->end_ns, last->begin_ns};
  if (window.end_ns <= window.begin_ns) return std::nullopt;
  return window;
}

double busy_seconds(const Snapshot& snapshot, std::span<const TrackId> tracks, Window window,
                    std::span<const StageId> stages) {
  std::vector<std::pair<std::int64_t, std::int64_t>> intervals;
  for (const Span& span : snapshot.spans) {
    if (!selected(tracks, span.track) || !selected(stages, span.stage)) continue;
    const std::int64_t b = std::max(span.begin_ns, window.begin_ns);
    const std::int64_t e = std::min(span.end_ns, window.end_ns);
    if (e > b) intervals.emplace_back(b, e);
  }
  return static_cast<double>(union_length(intervals)) * 1e-9;
}

double busy_fraction(const Snapshot& snapshot, std::span<const TrackId> tracks, Window window,
                     std::span<const StageId> stages) {
  const double length = window.seconds();
  return length > 0 ? busy_seconds(snapshot, tracks, window, stages) / length : 0.0;
}

std::vector<StageStats> stage_stats(const Snapshot& snapshot, std::optional<Window> window) {
  std::vector<std::vector<double>> durations_ms(snapshot.stages.size());
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> intervals(snapshot.stages.size());
  std::vector<std::uint64_t> bytes(snapshot.stages.size(), 0);
  for (const Span& span : snapshot.spans) {
    if (!begins_inside(span, window) || index(span.stage) >= snapshot.stages.size()) continue;
    durations_ms[index(span.stage)].push_back(static_cast<double>(span.duration_ns()) * 1e-6);
    intervals[index(span.stage)].emplace_back(span.begin_ns, span.end_ns);
    bytes[index(span.stage)] += span.bytes;
  }
  std::vector<StageStats> out;
  for (std::size_t s = 0; s < snapshot.stages.size(); ++s) {
    std::vector<double>& d = durations_ms[s];
    if (d.empty()) continue;
    std::sort(d.begin(), d.end());
    StageStats stats;
    stats.stage = StageId(static_cast<std::uint16_t>(s));
    stats.name = snapshot.stages[s];
    stats.count = d.size();
    double sum_ms = 0;
    for (double v : d) sum_ms += v;
    stats.busy_s = sum_ms * 1e-3;
    stats.active_s = static_cast<double>(union_length(intervals[s])) * 1e-9;
    stats.mean_ms = sum_ms / static_cast<double>(d.size());
    stats.p50_ms = percentile_sorted(d, 0.50);
    stats.p99_ms = percentile_sorted(d, 0.99);
    stats.max_ms = d.back();
    stats.bytes = bytes[s];
    out.push_back(std::move(stats));
  }
  return out;
}

double bytes_per_second(const Snapshot& snapshot, StageId stage, std::optional<Window> window, int gpu) {
  double bytes = 0;
  std::int64_t time_ns = 0;
  for (const Span& span : snapshot.spans) {
    if (span.stage != stage || !begins_inside(span, window) || (gpu != Snapshot::any_gpu && span.gpu != gpu))
      continue;
    bytes += static_cast<double>(span.bytes);
    time_ns += span.duration_ns();
  }
  return time_ns > 0 ? bytes / (static_cast<double>(time_ns) * 1e-9) : 0.0;
}

double counter_seconds_above(const Snapshot& snapshot, TrackId track, Window window, double threshold) {
  std::int64_t total = 0;
  std::int64_t since = window.begin_ns;  // the current value holds from here
  bool above = 0.0 > threshold;          // before the first sample the counter reads 0
  const auto close = [&](std::int64_t until) {
    const std::int64_t b = std::max(since, window.begin_ns);
    const std::int64_t e = std::min(until, window.end_ns);
    if (above && e > b) total += e - b;
  };
  for (const CounterSample& sample : snapshot.counters) {
    if (sample.track != track) continue;
    close(sample.t_ns);
    since = std::max(since, sample.t_ns);
    above = sample.value > threshold;
  }
  close(window.end_ns);
  return static_cast<double>(total) * 1e-9;
}

double counter_max(const Snapshot& snapshot, TrackId track) {
  bool any = false;
  double best = 0;
  for (const CounterSample& sample : snapshot.counters) {
    if (sample.track != track) continue;
    best = any ? std::max(best, sample.value) : sample.value;
    any = true;
  }
  return best;
}

}  // namespace proofline::trace
