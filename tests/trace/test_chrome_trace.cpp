#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <proofline/trace/chrome_trace.hpp>
#include <proofline/trace/json_text.hpp>
#include <proofline/trace/recorder.hpp>
#include <proofline/trace/scoped_span.hpp>
#include <proofline/util/error.hpp>

#include "trace/json_check.hpp"
#include "trace/trace_fixture.hpp"

using namespace proofline;
using namespace proofline::trace;
using proofline::test::JsonValue;

namespace {

JsonValue export_and_parse(const Snapshot& snapshot) {
  std::ostringstream out;
  write_chrome_trace(snapshot, out);
  return test::parse_json(out.str());
}

std::vector<const JsonValue*> events_with_phase(const JsonValue& doc, const std::string& ph) {
  std::vector<const JsonValue*> out;
  for (const JsonValue& e : doc.at("traceEvents").items)
    if (e.at("ph").text == ph) out.push_back(&e);
  return out;
}

/// Name given to (pid, tid) by thread_name metadata; fails the test if there is not exactly one.
std::string thread_name(const JsonValue& doc, double pid, double tid) {
  std::vector<std::string> names;
  for (const JsonValue* e : events_with_phase(doc, "M"))
    if (e->at("name").text == "thread_name" && e->at("pid").number == pid && e->at("tid").number == tid)
      names.push_back(e->at("args").at("name").text);
  REQUIRE(names.size() == 1);
  return names[0];
}

/// Perfetto needs the X events of one thread to nest or follow each other.
void check_nesting(const JsonValue& doc) {
  std::map<std::pair<double, double>, std::vector<std::pair<std::int64_t, std::int64_t>>> by_thread;
  for (const JsonValue* e : events_with_phase(doc, "X")) {
    // ts/dur have three decimals: integers in nanoseconds once the dot is dropped.
    const auto ns = [](const std::string& text) {
      std::string digits = text;
      digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
      return std::stoll(digits);
    };
    const std::int64_t b = ns(e->at("ts").text);
    by_thread[{e->at("pid").number, e->at("tid").number}].emplace_back(b, b + ns(e->at("dur").text));
  }
  for (auto& [thread, spans] : by_thread) {
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<std::int64_t> open;
    for (const auto& [b, e] : spans) {
      while (!open.empty() && open.back() <= b) open.pop_back();
      CHECK((open.empty() || e <= open.back()));
      open.push_back(e);
    }
  }
}

}  // namespace

TEST_CASE("trace/chrome/spans counters and names come out as valid trace events") {
  Snapshot s;
  const StageId synth = test::add_stage(s, "synthesis");
  const StageId h2d = test::add_stage(s, "h2d");
  const StageId odd = test::add_stage(s, "odd \"name\"\\ with\nnewline, \x01 and \xc3\xbc \xff");
  const TrackId cpu = test::add_track(s, "cpu worker 0", TrackKind::cpu_worker);
  const TrackId copy0 = test::add_track(s, "copy", TrackKind::cuda_stream, 0);
  const TrackId compute1 = test::add_track(s, "compute", TrackKind::cuda_stream, 1);
  const TrackId leased = test::add_track(s, "pool leased bytes", TrackKind::counter);
  const TrackId waiting = test::add_track(s, "jobs waiting for a token", TrackKind::counter);
  test::add_span(s, synth, cpu, 1'000, 2'501'234, 0);
  test::add_span(s, h2d, copy0, 2'600'000, 3'000'000, 0, 1 << 20, 0);
  test::add_span(s, odd, compute1, 3'000'000, 3'000'001);  // no job: args has no "job"
  test::add_span(s, synth, cpu, -5'000, -1'000, 1);        // before the epoch: negative ts
  test::add_sample(s, leased, 0, 0);
  test::add_sample(s, leased, 5'000, 1073741824.0);
  test::add_sample(s, waiting, 7'500, 2.5);
  test::add_sample(s, waiting, 8'000, std::nan(""));  // left out
  s.sort();

  const JsonValue doc = export_and_parse(s);
  CHECK(doc.at("displayTimeUnit").text == "ms");
  CHECK(doc.at("otherData").at("dropped").number == 0);

  // Processes: host, GPU 0, GPU 1.
  std::map<double, std::string> processes;
  for (const JsonValue* e : events_with_phase(doc, "M"))
    if (e->at("name").text == "process_name") processes[e->at("pid").number] = e->at("args").at("name").text;
  CHECK(processes == std::map<double, std::string>{{1, "proofline host"}, {2, "GPU 0"}, {3, "GPU 1"}});

  // Tracks: tid = id + 1 in the process of their GPU, named; counter tracks get no thread.
  CHECK(thread_name(doc, 1, index(cpu) + 1) == "cpu worker 0");
  CHECK(thread_name(doc, 2, index(copy0) + 1) == "copy");
  CHECK(thread_name(doc, 3, index(compute1) + 1) == "compute");
  for (const JsonValue* e : events_with_phase(doc, "M"))
    if (e->at("name").text == "thread_name")
      CHECK(e->at("args").at("name").text.find("bytes") == std::string::npos);

  const auto xs = events_with_phase(doc, "X");
  REQUIRE(xs.size() == 4);
  const auto find_x = [&](const std::string& ts) -> const JsonValue& {
    for (const JsonValue* e : xs)
      if (e->at("ts").text == ts) return *e;
    FAIL("no X event at ts " << ts);
    return *xs[0];
  };
  const JsonValue& synth_event = find_x("1.000");
  CHECK(synth_event.at("name").text == "synthesis");
  CHECK(synth_event.at("dur").text == "2500.234");
  CHECK(synth_event.at("pid").number == 1);
  CHECK(synth_event.at("tid").number == index(cpu) + 1);
  CHECK(synth_event.at("cat").text == "cpu");
  CHECK(synth_event.at("args").at("job").number == 0);
  CHECK(synth_event.at("args").find("bytes") == nullptr);

  const JsonValue& copy_event = find_x("2600.000");
  CHECK(copy_event.at("name").text == "h2d");
  CHECK(copy_event.at("dur").text == "400.000");
  CHECK(copy_event.at("pid").number == 2);
  CHECK(copy_event.at("tid").number == index(copy0) + 1);
  CHECK(copy_event.at("cat").text == "gpu");
  CHECK(copy_event.at("args").at("bytes").number == 1048576);
  CHECK(copy_event.at("args").at("gpu").number == 0);

  const JsonValue& odd_event = find_x("3000.000");
  CHECK(odd_event.at("name").text == "odd \"name\"\\ with\nnewline, \x01 and \xc3\xbc \xef\xbf\xbd");
  CHECK(odd_event.at("dur").text == "0.001");
  CHECK(odd_event.at("pid").number == 3);
  CHECK(odd_event.at("args").members.empty());

  CHECK(find_x("-5.000").at("dur").text == "4.000");

  const auto cs = events_with_phase(doc, "C");
  REQUIRE(cs.size() == 3);
  CHECK(cs[0]->at("name").text == "pool leased bytes");
  CHECK(cs[0]->at("ts").text == "0.000");
  CHECK(cs[1]->at("args").at("value").number == 1073741824.0);
  CHECK(cs[1]->at("ts").text == "5.000");
  CHECK(cs[2]->at("name").text == "jobs waiting for a token");
  CHECK(cs[2]->at("args").at("value").number == 2.5);
  CHECK(cs[2]->at("pid").number == 1);
  check_nesting(doc);

  std::ostringstream without;
  write_chrome_trace(s, without, ChromeTraceOptions{"host", false});
  CHECK(events_with_phase(test::parse_json(without.str()), "C").empty());
}

TEST_CASE("trace/chrome/each job's wait and time in flight are async slices with its label and outcome") {
  Snapshot s;
  const StageId synth = test::add_stage(s, "synthesis");
  const TrackId cpu = test::add_track(s, "cpu worker 0", TrackKind::cpu_worker);
  test::add_span(s, synth, cpu, 2'000, 3'000, 7);
  s.jobs.push_back(JobRecord{7, 1'000, 1'500, 9'000, JobOutcome::proved, "block \"42\"", "transfer"});
  s.jobs.push_back(JobRecord{8, 1'200, std::nullopt, 4'000, JobOutcome::cancelled, "", "transfer"});
  s.sort();
  const JsonValue doc = export_and_parse(s);

  CHECK(events_with_phase(doc, "X").at(0)->at("args").at("label").text == "block \"42\"");
  const auto begins = events_with_phase(doc, "b"), ends = events_with_phase(doc, "e");
  REQUIRE(begins.size() == 3);  // job 7 queued and in flight, job 8 queued only
  REQUIRE(ends.size() == 3);
  std::map<std::pair<double, std::string>, std::pair<std::string, std::string>> slices;  // -> ts begin, end
  for (const JsonValue* b : begins) {
    CHECK(b->at("cat").text == "job");
    CHECK(b->at("pid").number == 1);
    CHECK(b->at("args").at("job").number == b->at("id").number);
    slices[{b->at("id").number, b->at("name").text}].first = b->at("ts").text;
  }
  for (const JsonValue* e : ends) slices[{e->at("id").number, e->at("name").text}].second = e->at("ts").text;
  using Slice = std::pair<std::string, std::string>;
  CHECK(slices.at({7, "queued"}) == Slice{"1.000", "1.500"});
  CHECK(slices.at({7, "in flight"}) == Slice{"1.500", "9.000"});
  CHECK(slices.at({8, "queued"}) == Slice{"1.200", "4.000"});
  for (const JsonValue* b : begins) {
    const JsonValue& args = b->at("args");
    CHECK(args.at("key").text == "transfer");
    if (b->at("id").number == 7) {
      CHECK(args.at("label").text == "block \"42\"");
      CHECK(args.at("outcome").text == "proved");
    } else {
      CHECK(args.at("outcome").text == "cancelled");
    }
  }

  s.jobs.push_back(
      JobRecord{9, 5'000, 4'000, 6'000, JobOutcome::failed, "", ""});  // admitted before submitted
  CHECK_THROWS_AS(s.validate(), Error);
}

TEST_CASE("trace/chrome/overlapping spans on one stream move to extra lanes") {
  Snapshot s;
  const StageId copy = test::add_stage(s, "copy");
  const TrackId stream = test::add_track(s, "copy stream", TrackKind::cuda_stream, 0);
  const TrackId other = test::add_track(s, "compute", TrackKind::cuda_stream, 0);
  test::add_span(s, copy, stream, 0, 10'000, 1);
  test::add_span(s, copy, stream, 2'000, 3'000, 2);    // nested: stays on the lane
  test::add_span(s, copy, stream, 5'000, 15'000, 3);   // overlaps without nesting: second lane
  test::add_span(s, copy, stream, 6'000, 20'000, 4);   // overlaps both: third lane
  test::add_span(s, copy, stream, 16'000, 17'000, 5);  // job 1 has ended: the first lane is free
  test::add_span(s, copy, other, 0, 1'000, 6);
  test::add_span(s, copy, other, 0, 5'000, 7);  // same begin, encloses job 6: one lane
  s.sort();
  const JsonValue doc = export_and_parse(s);
  check_nesting(doc);

  std::map<double, double> tid_of_job;
  for (const JsonValue* e : events_with_phase(doc, "X"))
    tid_of_job[e->at("args").at("job").number] = e->at("tid").number;
  const double main_tid = index(stream) + 1;
  CHECK(tid_of_job[1] == main_tid);
  CHECK(tid_of_job[2] == main_tid);
  CHECK(tid_of_job[3] != main_tid);
  CHECK(tid_of_job[4] != main_tid);
  CHECK(tid_of_job[4] != tid_of_job[3]);
  CHECK(tid_of_job[5] == main_tid);  // job 1 ended at 10 us, so the first lane is free
  CHECK(tid_of_job[6] == index(other) + 1);
  CHECK(tid_of_job[7] == index(other) + 1);
  CHECK(thread_name(doc, 2, tid_of_job[3]) == "copy stream (overlap 1)");
  CHECK(thread_name(doc, 2, tid_of_job[4]) == "copy stream (overlap 2)");
  // Extra lanes do not collide with any track's tid.
  CHECK(tid_of_job[3] > static_cast<double>(s.tracks.size()));
}

TEST_CASE("trace/chrome/unknown ids are refused") {
  Snapshot s;
  const StageId stage = test::add_stage(s, "s");
  const TrackId track = test::add_track(s, "t", TrackKind::cpu_worker);
  const TrackId counter = test::add_track(s, "c", TrackKind::counter);
  std::ostringstream out;

  Snapshot bad_stage = s;
  test::add_span(bad_stage, StageId(5), track, 0, 1);
  CHECK_THROWS_AS(write_chrome_trace(bad_stage, out), Error);
  Snapshot bad_track = s;
  test::add_span(bad_track, stage, TrackId(9), 0, 1);
  CHECK_THROWS_AS(write_chrome_trace(bad_track, out), Error);
  Snapshot span_on_counter = s;
  test::add_span(span_on_counter, stage, counter, 0, 1);
  CHECK_THROWS_AS(write_chrome_trace(span_on_counter, out), Error);
  Snapshot sample_on_worker = s;
  test::add_sample(sample_on_worker, track, 0, 1);
  CHECK_THROWS_AS(write_chrome_trace(sample_on_worker, out), Error);

  CHECK_THROWS_AS(write_chrome_trace_file(s, "/nonexistent-dir/trace.json"), Error);
}

TEST_CASE("trace/chrome/an empty snapshot is still a valid trace") {
  const JsonValue doc = export_and_parse(Snapshot{});
  CHECK(events_with_phase(doc, "X").empty());
  CHECK(events_with_phase(doc, "M").size() == 2);  // the host process's name and sort index
}

#if PROOFLINE_TRACE_ENABLED
TEST_CASE("trace/chrome/a recorded run exports with the recorder's times") {
  Recorder recorder;
  const StageId stage = recorder.add_stage("synthesis");
  for (int job = 0; job < 3; ++job) {
    ScopedSpan span(recorder, stage, static_cast<std::uint64_t>(job));
  }
  const Snapshot s = recorder.snapshot();
  const JsonValue doc = export_and_parse(s);
  const auto xs = events_with_phase(doc, "X");
  REQUIRE(xs.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const Span& span = s.spans[i];
    const JsonValue* e = *std::find_if(
        xs.begin(), xs.end(), [&](const JsonValue* x) { return x->at("args").at("job").number == span.job; });
    CHECK(e->at("ts").text == ns_as_us(span.begin_ns));
    CHECK(e->at("dur").text == ns_as_us(span.duration_ns()));
    CHECK(e->at("tid").number == index(span.track) + 1);
  }
  CHECK(thread_name(doc, 1, index(s.spans[0].track) + 1) == "cpu worker 0");
}
#endif
