#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include <proofline/trace/timeline_svg.hpp>
#include <proofline/util/error.hpp>

#include "trace/trace_fixture.hpp"
#include "trace/xml_check.hpp"

using namespace proofline;
using namespace proofline::trace;

namespace {

/// Two GPUs with a copy and a compute stream each, four CPU workers, pool counters; 8 jobs over 2 s.
struct Run {
  Snapshot s;
  StageId synth, h2d, msm;
  TrackId leased, idle, waiting;
  Run() {
    synth = test::add_stage(s, "synthesis");
    h2d = test::add_stage(s, "h2d");
    msm = test::add_stage(s, "msm <G1 & G2>");
    TrackId cpu[4];
    for (int w = 0; w < 4; ++w)
      cpu[w] = test::add_track(s, "cpu worker " + std::to_string(w), TrackKind::cpu_worker);
    TrackId copy[2], compute[2];
    for (int g = 0; g < 2; ++g) {
      copy[g] = test::add_track(s, "copy", TrackKind::cuda_stream, g);
      compute[g] = test::add_track(s, "compute", TrackKind::cuda_stream, g);
    }
    leased = test::add_track(s, "pool leased bytes", TrackKind::counter);
    idle = test::add_track(s, "pool idle bytes", TrackKind::counter);
    waiting = test::add_track(s, "jobs waiting for a token", TrackKind::counter);
    constexpr std::int64_t ms = 1'000'000;
    for (std::int64_t j = 0; j < 8; ++j) {
      const int g = static_cast<int>(j % 2);
      const std::int64_t t0 = j * 200 * ms;
      const auto job = static_cast<std::uint64_t>(j);
      test::add_span(s, synth, cpu[j % 4], t0, t0 + 300 * ms, job);
      test::add_span(s, h2d, copy[g], t0 + 300 * ms, t0 + 320 * ms, job, 1 << 30, g);
      test::add_span(s, msm, compute[g], t0 + 320 * ms, t0 + 500 * ms, job, 0, g);
      test::add_sample(s, leased, t0, static_cast<double>((j % 3 + 1) << 30));
      test::add_sample(s, idle, t0, static_cast<double>((2 - j % 3) << 30));
      test::add_sample(s, waiting, t0 + 10 * ms, static_cast<double>(j % 4));
    }
    s.sort();
  }
};

std::string draw(const Snapshot& s, const TimelineOptions& options) {
  std::ostringstream out;
  write_timeline_svg(s, options, out);
  return out.str();
}

}  // namespace

TEST_CASE("trace/svg/a run draws lanes legend axis and counters as well-formed SVG") {
  Run run;
  TimelineOptions options;
  options.title = "batch of 8 & more";
  options.counter_charts = {
      CounterChart{"pinned pool", {run.leased, run.idle}, CounterUnit::bytes, true},
      CounterChart{"jobs waiting for a token", {run.waiting}, CounterUnit::count, false}};
  const std::string svg = draw(run.s, options);
  test::XmlSummary xml = test::check_xml(svg);
  CHECK(xml.root == "svg");
  CHECK(xml.classes["lane"] == 5);  // 4 streams + the collapsed CPU lane
  CHECK(xml.classes["legend"] == 1);
  CHECK(xml.classes["axis"] == 1);
  CHECK(xml.classes["counter-chart"] == 2);
  for (const char* label :
       {"GPU 0: copy", "GPU 0: compute", "GPU 1: copy", "GPU 1: compute", "CPU workers (4)", "synthesis",
        "h2d", "msm <G1 & G2>", "pinned pool", "pool leased bytes", "pool idle bytes", "batch of 8 & more",
        "0.0 s", "1.0 s", "3.00 GiB"}) {
    CAPTURE(label);
    CHECK(xml.text.find(label) != std::string::npos);
  }
  // Idle time is the lane background showing between spans; each of GPU 0's 4 copies is its own rectangle.
  CHECK(xml.text.find("idle") != std::string::npos);
  std::size_t copies = 0;
  for (std::size_t at = xml.text.find("h2d job"); at != std::string::npos;
       at = xml.text.find("h2d job", at + 1))
    ++copies;
  CHECK(copies == 8);
  // GPU 0's compute stream: 4 x 180 ms over the 1.9 s window is 38%.
  CHECK(xml.text.find("38%") != std::string::npos);
}

TEST_CASE("trace/svg/workers can get a lane each and counters default to one chart") {
  Run run;
  TimelineOptions options;
  options.collapse_cpu_workers = false;
  test::XmlSummary xml = test::check_xml(draw(run.s, options));
  CHECK(xml.classes["lane"] == 8);
  CHECK(xml.classes["counter-chart"] == 1);
  CHECK(xml.text.find("cpu worker 3") != std::string::npos);

  options.cpu_workers = false;
  CHECK(test::check_xml(draw(run.s, options)).classes["lane"] == 4);
}

TEST_CASE("trace/svg/a window and merged tiny spans keep the picture small") {
  Snapshot s;
  const StageId stage = test::add_stage(s, "ntt");
  const TrackId stream = test::add_track(s, "compute", TrackKind::cuda_stream, 0);
  for (std::int64_t i = 0; i < 10'000; ++i) test::add_span(s, stage, stream, i * 100, i * 100 + 60, 0);
  s.sort();
  TimelineOptions options;
  options.width = 800;
  const std::string svg = draw(s, options);
  test::XmlSummary xml = test::check_xml(svg);
  CHECK(xml.elements["rect"] < 1000);  // 10,000 spans on 530 pixels merge
  CHECK(xml.text.find("10000 spans") != std::string::npos);
  options.window = Window{0, 1000};  // ten spans, each wide enough for its own rectangle
  test::XmlSummary zoomed = test::check_xml(draw(s, options));
  CHECK(zoomed.text.find(" 10 spans") != std::string::npos);  // the window's, not the run's
  std::size_t tips = 0;
  for (std::size_t at = zoomed.text.find("ntt job"); at != std::string::npos;
       at = zoomed.text.find("ntt job", at + 1))
    ++tips;
  CHECK(tips == 10);
}

TEST_CASE("trace/svg/empty runs and bad charts") {
  test::XmlSummary empty = test::check_xml(draw(Snapshot{}, TimelineOptions{}));
  CHECK(empty.root == "svg");
  CHECK(empty.text.find("nothing was recorded") != std::string::npos);

  Run run;
  TimelineOptions options;
  options.counter_charts = {CounterChart{"wrong", {TrackId(4)}, CounterUnit::count, true}};  // a stream
  std::ostringstream out;
  CHECK_THROWS_AS(write_timeline_svg(run.s, options, out), Error);
  CHECK_THROWS_AS(write_timeline_svg_file(run.s, TimelineOptions{}, "/nonexistent-dir/t.svg"), Error);
}

namespace {

/// The y attribute of the rectangle whose tooltip starts with `tip`, or -1.
double rect_y(const std::string& svg, const std::string& tip) {
  const std::size_t title = svg.find("<title>" + tip);
  if (title == std::string::npos) return -1;
  const std::size_t rect = svg.rfind("<rect ", title);
  const std::size_t y = svg.find(" y=\"", rect);
  return std::stod(svg.substr(y + 4));
}

}  // namespace

TEST_CASE("trace/svg/spans that overlap on one track are drawn in rows of their own") {
  // Three jobs on one compute track, as a GPU's device slots share it: 1 overlaps 0, 2 starts after 0 ended.
  Snapshot s;
  const StageId msm = test::add_stage(s, "msm");
  const TrackId compute = test::add_track(s, "compute", TrackKind::cuda_stream, 0);
  constexpr std::int64_t ms = 1'000'000;
  test::add_span(s, msm, compute, 0, 100 * ms, 0);
  test::add_span(s, msm, compute, 50 * ms, 150 * ms, 1);
  test::add_span(s, msm, compute, 120 * ms, 200 * ms, 2);
  s.sort();
  const std::string svg = draw(s, TimelineOptions{});
  test::check_xml(svg);
  const double y0 = rect_y(svg, "msm job 0"), y1 = rect_y(svg, "msm job 1"), y2 = rect_y(svg, "msm job 2");
  CHECK(y0 > 0);
  CHECK(y1 > y0);                                // a second row, below the first
  CHECK(y2 == y0);                               // back in the first row
  CHECK(svg.find("100%") != std::string::npos);  // busy is the union of the rows: 0 to 200 ms

  // Without overlap every span stays in the one row.
  Snapshot apart;
  const StageId h2d = test::add_stage(apart, "h2d");
  const TrackId copy = test::add_track(apart, "copy", TrackKind::cuda_stream, 0);
  test::add_span(apart, h2d, copy, 0, 40 * ms, 0);
  test::add_span(apart, h2d, copy, 60 * ms, 100 * ms, 1);
  apart.sort();
  const std::string one_row = draw(apart, TimelineOptions{});
  CHECK(rect_y(one_row, "h2d job 0") == rect_y(one_row, "h2d job 1"));
}
