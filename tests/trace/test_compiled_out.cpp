// The switch that compiles tracing out: checked in every build, and run for real in a PROOFLINE_TRACE=OFF
// one.
#include <doctest/doctest.h>

#include <type_traits>

#include <proofline/trace/recorder.hpp>
#include <proofline/trace/scoped_span.hpp>

using namespace proofline::trace;

// tests/CMakeLists.txt passes the CMake option: the library's public definition must have reached this
// target.
static_assert(compiled_in == (PROOFLINE_TRACE_EXPECTED != 0),
              "PROOFLINE_TRACE_ENABLED does not follow PROOFLINE_TRACE");
static_assert(std::is_same_v<ScopedSpan, BasicScopedSpan<compiled_in>>);
static_assert(std::is_empty_v<BasicScopedSpan<false>>, "the compiled-out span must hold nothing");
static_assert(std::is_trivially_destructible_v<BasicScopedSpan<false>>,
              "the compiled-out span must do nothing");
static_assert(!std::is_trivially_destructible_v<BasicScopedSpan<true>>);

TEST_CASE("trace/compiled out/the disabled span records nothing") {
  Recorder recorder;
  const StageId stage = recorder.add_stage("s");
  {
    BasicScopedSpan<false> span(recorder, stage, 1, 0);
    span.set_bytes(10);
    span.set_job(2);
    CHECK(span.begin_ns() == 0);
  }
  const Snapshot s = recorder.snapshot();
  CHECK(s.spans.empty());
  CHECK(s.tracks.empty());  // not even a worker track was registered
}

#if !PROOFLINE_TRACE_ENABLED
TEST_CASE("trace/compiled out/recording is a no-op while registration still works") {
  Recorder recorder;
  const StageId stage = recorder.add_stage("s");
  const TrackId stream = recorder.add_track("stream", TrackKind::cuda_stream, 0);
  const TrackId counter = recorder.add_track("c", TrackKind::counter);
  { ScopedSpan span(recorder, stage, 1); }
  Span span;
  span.stage = stage;
  span.track = stream;
  span.end_ns = 10;
  recorder.record_span(span);
  recorder.record_worker_span(stage, 1, 0, 10);
  recorder.record_counter(counter, 5.0);
  recorder.record_counter(counter, 1, 5.0);
  const Snapshot s = recorder.snapshot();
  CHECK(s.stages.size() == 1);
  CHECK(s.tracks.size() == 2);
  CHECK(s.spans.empty());
  CHECK(s.counters.empty());
}
#endif
