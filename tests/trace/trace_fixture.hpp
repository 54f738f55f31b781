// Test support: small hand-made snapshots shared by the export tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include <proofline/trace/snapshot.hpp>

namespace proofline::test {

inline trace::TrackId add_track(trace::Snapshot& s, std::string name, trace::TrackKind kind,
                                int gpu = trace::no_gpu) {
  s.tracks.push_back(trace::TrackInfo{std::move(name), kind, gpu});
  return trace::TrackId(static_cast<std::uint32_t>(s.tracks.size() - 1));
}

inline trace::StageId add_stage(trace::Snapshot& s, std::string name) {
  s.stages.push_back(std::move(name));
  return trace::StageId(static_cast<std::uint16_t>(s.stages.size() - 1));
}

inline void add_span(trace::Snapshot& s, trace::StageId stage, trace::TrackId track, std::int64_t begin_ns,
                     std::int64_t end_ns, std::uint64_t job = trace::no_job, std::uint64_t bytes = 0,
                     int gpu = trace::no_gpu) {
  trace::Span span;
  span.begin_ns = begin_ns;
  span.end_ns = end_ns;
  span.job = job;
  span.bytes = bytes;
  span.stage = stage;
  span.gpu = static_cast<std::int16_t>(gpu);
  span.track = track;
  s.spans.push_back(span);
}

/// Seconds and milliseconds as whole nanoseconds, to compare nanosecond-scale results exactly (doctest's
/// Approx has an absolute slack of about 1e-5 that would accept any of them).
inline long long ns(double seconds) {
  return std::llround(seconds * 1e9);
}
inline long long ns_from_ms(double ms) {
  return std::llround(ms * 1e6);
}

inline void add_sample(trace::Snapshot& s, trace::TrackId track, std::int64_t t_ns, double value) {
  s.counters.push_back(trace::CounterSample{t_ns, value, track});
}

}  // namespace proofline::test
