#include <proofline/trace/chrome_trace.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <sstream>
#include <unordered_map>
#include <vector>

#include <proofline/trace/json_text.hpp>
#include <proofline/util/atomic_file.hpp>
#include <proofline/util/error.hpp>

namespace proofline::trace {

namespace {

int pid_of(const TrackInfo& track) {
  return track.gpu < 0 ? 1 : 2 + track.gpu;
}

/// Assigns each span a lane of its track so that spans on one lane nest or follow each other. Greedy over
/// spans in begin order: a span joins the first lane whose open spans it nests inside (or that is empty).
std::vector<std::size_t> assign_lanes(const Snapshot& snapshot, std::vector<std::size_t>& lanes_per_track) {
  std::vector<std::size_t> lane(snapshot.spans.size(), 0);
  // Per track, per lane: end times of the spans still open (a stack, innermost last).
  std::vector<std::vector<std::vector<std::int64_t>>> open(snapshot.tracks.size());
  // Outer spans first among equal begins, so that a span and one it encloses share a lane.
  std::vector<std::size_t> order(snapshot.spans.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Span& x = snapshot.spans[a];
    const Span& y = snapshot.spans[b];
    return x.begin_ns != y.begin_ns ? x.begin_ns < y.begin_ns : x.end_ns > y.end_ns;
  });
  for (const std::size_t i : order) {
    const Span& span = snapshot.spans[i];
    auto& lanes = open[index(span.track)];
    std::size_t chosen = lanes.size();
    for (std::size_t l = 0; l < lanes.size(); ++l) {
      auto& stack = lanes[l];
      while (!stack.empty() && stack.back() <= span.begin_ns) stack.pop_back();
      if (stack.empty() || span.end_ns <= stack.back()) {
        chosen = l;
        break;
      }
    }
    if (chosen == lanes.size()) lanes.emplace_back();
    lanes[chosen].push_back(span.end_ns);
    lane[i] = chosen;
  }
  lanes_per_track.resize(snapshot.tracks.size());
  for (std::size_t t = 0; t < open.size(); ++t) lanes_per_track[t] = std::max<std::size_t>(1, open[t].size());
  return lane;
}

/// tid of (track, lane): lane 0 is track id + 1; extra lanes are numbered after all tracks.
class ThreadIds {
 public:
  explicit ThreadIds(const std::vector<std::size_t>& lanes_per_track)
      : first_extra_(lanes_per_track.size(), 0) {
    std::size_t next_tid = lanes_per_track.size() + 1;
    for (std::size_t t = 0; t < lanes_per_track.size(); ++t) {
      first_extra_[t] = next_tid;
      next_tid += lanes_per_track[t] - 1;
    }
  }
  std::size_t of(std::size_t track, std::size_t lane) const {
    return lane == 0 ? track + 1 : first_extra_[track] + lane - 1;
  }

 private:
  std::vector<std::size_t> first_extra_;
};

/// The trace's event array: next() starts an event, with a separator after the one before.
class EventList {
 public:
  explicit EventList(std::ostream& out) : out_(out) {}
  std::ostream& next() {
    if (!first_) out_ << ",\n";
    first_ = false;
    return out_;
  }

 private:
  std::ostream& out_;
  bool first_ = true;
};

void write_process_names(const Snapshot& snapshot, const ChromeTraceOptions& options, EventList& events) {
  std::map<int, std::string> processes{{1, options.host_process_name}};
  for (const TrackInfo& track : snapshot.tracks)
    if (track.gpu >= 0) processes.emplace(pid_of(track), "GPU " + std::to_string(track.gpu));
  for (const auto& [pid, name] : processes) {
    events.next() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << pid
                  << ",\"tid\":0,\"args\":{\"name\":" << json_quote(name) << "}}";
    // GPUs above the host: their streams are what a person tuning the prover looks at first.
    events.next() << "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" << pid
                  << ",\"tid\":0,\"args\":{\"sort_index\":" << (pid == 1 ? 1'000'000 : pid) << "}}";
  }
}

void write_thread_names(const Snapshot& snapshot, const std::vector<std::size_t>& lanes_per_track,
                        const ThreadIds& tids, EventList& events) {
  for (std::size_t t = 0; t < snapshot.tracks.size(); ++t) {
    const TrackInfo& track = snapshot.tracks[t];
    if (track.kind == TrackKind::counter) continue;
    for (std::size_t l = 0; l < lanes_per_track[t]; ++l) {
      const std::string name = l == 0 ? track.name : track.name + " (overlap " + std::to_string(l) + ")";
      const std::size_t tid = tids.of(t, l);
      events.next() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pid_of(track)
                    << ",\"tid\":" << tid << ",\"args\":{\"name\":" << json_quote(name) << "}}";
      events.next() << "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" << pid_of(track)
                    << ",\"tid\":" << tid << ",\"args\":{\"sort_index\":" << tid << "}}";
    }
  }
}

/// Each job's label, for the spans' args (a person searching the trace for a job knows its label).
using JobLabels = std::unordered_map<std::uint64_t, const std::string*>;

JobLabels job_labels(const Snapshot& snapshot) {
  JobLabels labels;
  for (const JobRecord& job : snapshot.jobs)
    if (!job.label.empty()) labels.emplace(job.job, &job.label);
  return labels;
}

void write_span(const Snapshot& snapshot, const Span& span, std::size_t tid, const JobLabels& labels,
                EventList& events) {
  const TrackInfo& track = snapshot.tracks[index(span.track)];
  std::ostream& event = events.next();
  event << "{\"ph\":\"X\",\"name\":" << json_quote(snapshot.stages[index(span.stage)])
        << ",\"cat\":" << (track.kind == TrackKind::cuda_stream ? "\"gpu\"" : "\"cpu\"")
        << ",\"ts\":" << ns_as_us(span.begin_ns) << ",\"dur\":" << ns_as_us(span.duration_ns())
        << ",\"pid\":" << pid_of(track) << ",\"tid\":" << tid << ",\"args\":{";
  const char* separator = "";
  if (span.job != no_job) {
    event << "\"job\":" << span.job;
    if (const auto it = labels.find(span.job); it != labels.end())
      event << ",\"label\":" << json_quote(*it->second);
    separator = ",";
  }
  if (span.bytes != 0) {
    event << separator << "\"bytes\":" << span.bytes;
    separator = ",";
  }
  if (span.gpu >= 0) event << separator << "\"gpu\":" << span.gpu;
  event << "}}";
}

/// A job's wait in the queue and its time in flight, as async events: overlapping jobs get rows of their own
/// (one "queued" and one "in flight" row set under the host process), each with the job's label, key and
/// outcome.
void write_job(const JobRecord& job, EventList& events) {
  const std::int64_t admitted = job.admitted_ns.value_or(job.finished_ns);
  const auto phase = [&](const char* name, std::int64_t begin_ns, std::int64_t end_ns) {
    events.next() << "{\"ph\":\"b\",\"cat\":\"job\",\"name\":\"" << name << "\",\"id\":" << job.job
                  << ",\"ts\":" << ns_as_us(begin_ns) << ",\"pid\":1,\"tid\":0,\"args\":{\"job\":" << job.job
                  << ",\"label\":" << json_quote(job.label) << ",\"key\":" << json_quote(job.key)
                  << ",\"outcome\":\"" << to_string(job.outcome) << "\"}}";
    events.next() << "{\"ph\":\"e\",\"cat\":\"job\",\"name\":\"" << name << "\",\"id\":" << job.job
                  << ",\"ts\":" << ns_as_us(end_ns) << ",\"pid\":1,\"tid\":0}";
  };
  phase("queued", job.submitted_ns, admitted);
  if (job.admitted_ns) phase("in flight", admitted, job.finished_ns);
}

void write_counters(const Snapshot& snapshot, EventList& events) {
  for (const CounterSample& sample : snapshot.counters) {
    if (!std::isfinite(sample.value)) continue;  // JSON has no NaN; a gap reads better than a made-up value
    const TrackInfo& track = snapshot.tracks[index(sample.track)];
    events.next() << "{\"ph\":\"C\",\"name\":" << json_quote(track.name)
                  << ",\"ts\":" << ns_as_us(sample.t_ns) << ",\"pid\":" << pid_of(track)
                  << ",\"args\":{\"value\":" << json_number(sample.value) << "}}";
  }
}

}  // namespace

void write_chrome_trace(const Snapshot& snapshot, std::ostream& out, const ChromeTraceOptions& options) {
  snapshot.validate();
  std::vector<std::size_t> lanes_per_track;
  const std::vector<std::size_t> lane = assign_lanes(snapshot, lanes_per_track);
  const ThreadIds tids(lanes_per_track);

  out << "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"proofline\",\"clock\":"
      << json_quote("steady_clock, microseconds since the recorder's epoch")
      << ",\"dropped\":" << snapshot.dropped << "},\n\"traceEvents\":[\n";
  EventList events(out);
  write_process_names(snapshot, options, events);
  write_thread_names(snapshot, lanes_per_track, tids, events);
  const JobLabels labels = job_labels(snapshot);
  for (std::size_t i = 0; i < snapshot.spans.size(); ++i) {
    const Span& span = snapshot.spans[i];
    write_span(snapshot, span, tids.of(index(span.track), lane[i]), labels, events);
  }
  for (const JobRecord& job : snapshot.jobs) write_job(job, events);
  if (options.counters) write_counters(snapshot, events);
  out << "\n]}\n";
}

void write_chrome_trace_file(const Snapshot& snapshot, const std::string& path,
                             const ChromeTraceOptions& options) {
  std::ostringstream text;
  write_chrome_trace(snapshot, text, options);
  write_file_atomically(path, text.view());
}

}  // namespace proofline::trace
