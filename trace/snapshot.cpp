#include <proofline/trace/snapshot.hpp>

#include <algorithm>
#include <string>
#include <tuple>

#include <proofline/util/error.hpp>

namespace proofline::trace {

const std::string& Snapshot::stage_name(StageId id) const {
  if (index(id) >= stages.size())
    throw Error(Errc::internal, "trace: stage id " + std::to_string(index(id)) + " was never registered");
  return stages[index(id)];
}

const TrackInfo& Snapshot::track(TrackId id) const {
  if (index(id) >= tracks.size())
    throw Error(Errc::internal, "trace: track id " + std::to_string(index(id)) + " was never registered");
  return tracks[index(id)];
}

std::optional<StageId> Snapshot::find_stage(std::string_view name) const {
  for (std::size_t i = 0; i < stages.size(); ++i)
    if (stages[i] == name) return StageId(static_cast<std::uint16_t>(i));
  return std::nullopt;
}

std::optional<TrackId> Snapshot::find_track(std::string_view name, int gpu) const {
  for (std::size_t i = 0; i < tracks.size(); ++i)
    if (tracks[i].name == name && tracks[i].gpu == gpu) return TrackId(static_cast<std::uint32_t>(i));
  return std::nullopt;
}

std::vector<TrackId> Snapshot::tracks_of_kind(TrackKind kind, int gpu) const {
  std::vector<TrackId> out;
  for (std::size_t i = 0; i < tracks.size(); ++i)
    if (tracks[i].kind == kind && (gpu == any_gpu || tracks[i].gpu == gpu))
      out.push_back(TrackId(static_cast<std::uint32_t>(i)));
  return out;
}

void Snapshot::validate() const {
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const Span& s = spans[i];
    const std::string where = "trace: span " + std::to_string(i);
    stage_name(s.stage);
    if (track(s.track).kind == TrackKind::counter)
      throw Error(Errc::internal, where + " lies on counter track '" + track(s.track).name + "'");
    if (s.end_ns < s.begin_ns) throw Error(Errc::internal, where + " ends before it begins");
  }
  for (std::size_t i = 0; i < counters.size(); ++i)
    if (track(counters[i].track).kind != TrackKind::counter)
      throw Error(Errc::internal, "trace: counter sample " + std::to_string(i) + " lies on span track '" +
                                      track(counters[i].track).name + "'");
  for (const JobRecord& job : jobs) {
    const std::int64_t admitted = job.admitted_ns.value_or(job.submitted_ns);
    if (admitted < job.submitted_ns || job.finished_ns < admitted)
      throw Error(Errc::internal, "trace: job " + std::to_string(job.job) +
                                      " is admitted before it is submitted or finishes before either");
  }
}

void Snapshot::sort() {
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    return std::tuple(a.begin_ns, index(a.track)) < std::tuple(b.begin_ns, index(b.track));
  });
  std::stable_sort(counters.begin(), counters.end(), [](const CounterSample& a, const CounterSample& b) {
    return std::tuple(a.t_ns, index(a.track)) < std::tuple(b.t_ns, index(b.track));
  });
  std::stable_sort(jobs.begin(), jobs.end(), [](const JobRecord& a, const JobRecord& b) {
    return std::tuple(a.submitted_ns, a.job) < std::tuple(b.submitted_ns, b.job);
  });
}

}  // namespace proofline::trace
