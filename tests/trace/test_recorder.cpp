#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <latch>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <proofline/trace/recorder.hpp>
#include <proofline/trace/scoped_span.hpp>
#include <proofline/util/error.hpp>

using namespace proofline;
using namespace proofline::trace;

TEST_CASE("trace/recorder/registration is idempotent and keeps names") {
  Recorder recorder;
  const StageId synth = recorder.add_stage("synthesis");
  const StageId h2d = recorder.add_stage("h2d");
  CHECK(synth != h2d);
  CHECK(recorder.add_stage("synthesis") == synth);
  CHECK(std::string(recorder.stage_name(h2d)) == "h2d");
  CHECK(std::string(recorder.stage_name(StageId(200))) == "");

  const TrackId copy0 = recorder.add_track("copy", TrackKind::cuda_stream, 0);
  const TrackId copy1 = recorder.add_track("copy", TrackKind::cuda_stream, 1);
  const TrackId pool = recorder.add_track("pool leased bytes", TrackKind::counter);
  CHECK(copy0 != copy1);
  CHECK(recorder.add_track("copy", TrackKind::cuda_stream, 0) == copy0);
  CHECK_THROWS_AS(recorder.add_track("copy", TrackKind::cuda_stream, -3), Error);

  const Snapshot s = recorder.snapshot();
  CHECK(s.stages == std::vector<std::string>{"synthesis", "h2d"});
  REQUIRE(s.tracks.size() == 3);
  CHECK(s.track(copy1).gpu == 1);
  CHECK(s.track(pool).kind == TrackKind::counter);
  CHECK(s.find_track("copy", 1) == copy1);
  CHECK(s.tracks_of_kind(TrackKind::cuda_stream) == std::vector<TrackId>{copy0, copy1});
  CHECK(s.tracks_of_kind(TrackKind::cuda_stream, 1) == std::vector<TrackId>{copy1});
}

TEST_CASE("trace/recorder/stage registration stops at max_stages") {
  Recorder recorder;
  for (std::size_t i = 0; i < Recorder::max_stages; ++i) recorder.add_stage("stage " + std::to_string(i));
  CHECK(std::string(recorder.stage_name(StageId(Recorder::max_stages - 1))) ==
        "stage " + std::to_string(Recorder::max_stages - 1));
  try {
    recorder.add_stage("one too many");
    FAIL("accepted a stage past max_stages");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_argument);
    CHECK(std::string(e.what()).find("one too many") != std::string::npos);
  }
}

TEST_CASE("trace/recorder/worker tracks are one per thread") {
  Recorder recorder;
  const TrackId mine = recorder.worker_track();
  CHECK(recorder.worker_track() == mine);
  TrackId theirs{};
  std::thread([&] { theirs = recorder.worker_track(); }).join();
  CHECK(theirs != mine);
  const Snapshot s = recorder.snapshot();
  CHECK(s.track(mine).name == "cpu worker 0");
  CHECK(s.track(theirs).name == "cpu worker 1");
  CHECK(s.track(theirs).kind == TrackKind::cpu_worker);
}

#if PROOFLINE_TRACE_ENABLED

TEST_CASE("trace/recorder/many threads recording concurrently lose nothing") {
  Recorder recorder;
  const StageId work = recorder.add_stage("work");
  const StageId copy = recorder.add_stage("copy");
  const TrackId stream = recorder.add_track("stream", TrackKind::cuda_stream, 0);
  const TrackId gauge = recorder.add_track("gauge", TrackKind::counter);
  constexpr std::uint64_t threads = 8;
  constexpr std::uint64_t per_thread = 5000;  // several 1024-span chunks per thread

  std::atomic<bool> stop{false};
  std::atomic<std::size_t> snapshots{0};
  // Snapshots taken while the writers run must always be consistent: known ids, counts never shrinking.
  std::thread reader([&] {
    std::size_t last = 0;
    do {
      const Snapshot s = recorder.snapshot();
      CHECK_NOTHROW(s.validate());
      CHECK(s.spans.size() >= last);
      last = s.spans.size();
      snapshots.fetch_add(1);
    } while (!stop.load());
  });
  while (snapshots.load() == 0) std::this_thread::yield();  // the reader is looping before the writers start
  std::vector<std::thread> writers;
  for (std::uint64_t t = 0; t < threads; ++t) {
    writers.emplace_back([&, t] {
      for (std::uint64_t i = 0; i < per_thread; ++i) {
        const std::uint64_t job = t * per_thread + i;
        if (i % 2 == 0) {
          ScopedSpan span(recorder, work, job);
          span.set_bytes(i);
        } else {
          recorder.record_worker_span(work, job, static_cast<std::int64_t>(i),
                                      static_cast<std::int64_t>(i + 5), i);
        }
        Span gpu;
        gpu.begin_ns = static_cast<std::int64_t>(job);
        gpu.end_ns = static_cast<std::int64_t>(job) + 1;
        gpu.job = job;
        gpu.stage = copy;
        gpu.track = stream;
        gpu.gpu = 0;
        recorder.record_span(gpu);
        recorder.record_counter(gauge, static_cast<std::int64_t>(job), static_cast<double>(job));
      }
    });
  }
  for (auto& w : writers) w.join();
  stop = true;
  reader.join();

  const Snapshot s = recorder.snapshot();
  CHECK(s.dropped == 0);
  REQUIRE(s.spans.size() == 2 * threads * per_thread);
  REQUIRE(s.counters.size() == threads * per_thread);
  std::vector<int> work_seen(threads * per_thread, 0), copy_seen(threads * per_thread, 0);
  std::map<std::uint64_t, std::set<TrackId>> tracks_of_thread;  // thread -> worker tracks its spans used
  for (const Span& span : s.spans) {
    REQUIRE(span.job < threads * per_thread);
    if (span.stage == work) {
      ++work_seen[span.job];
      tracks_of_thread[span.job / per_thread].insert(span.track);
      CHECK(span.bytes == span.job % per_thread);
      CHECK(span.end_ns >= span.begin_ns);
    } else {
      ++copy_seen[span.job];
      CHECK(span.track == stream);
      CHECK(span.end_ns == span.begin_ns + 1);
    }
  }
  CHECK(std::count(work_seen.begin(), work_seen.end(), 1) == static_cast<long>(threads * per_thread));
  CHECK(std::count(copy_seen.begin(), copy_seen.end(), 1) == static_cast<long>(threads * per_thread));
  std::set<TrackId> all_worker_tracks;
  for (const auto& [thread, tracks] : tracks_of_thread) {
    CHECK(tracks.size() == 1);
    all_worker_tracks.insert(*tracks.begin());
  }
  CHECK(all_worker_tracks.size() == threads);
  std::vector<int> sample_seen(threads * per_thread, 0);
  for (const CounterSample& c : s.counters) ++sample_seen[static_cast<std::size_t>(c.value)];
  CHECK(std::count(sample_seen.begin(), sample_seen.end(), 1) == static_cast<long>(threads * per_thread));
  CHECK(std::is_sorted(s.spans.begin(), s.spans.end(),
                       [](const Span& a, const Span& b) { return a.begin_ns < b.begin_ns; }));
}

TEST_CASE("trace/recorder/past its memory limit it keeps the newest records and counts the rest") {
  if (!compiled_in) return;  // nothing is recorded
  // About eight chunks of spans for three threads: each keeps a contiguous run of its newest spans, a
  // snapshot taken meanwhile sees consistent data, and kept + dropped is everything recorded.
  Recorder recorder(Clock{}, 8 * 1024 * sizeof(Span));
  const StageId work = recorder.add_stage("work");
  const TrackId gauge = recorder.add_track("gauge", TrackKind::counter);
  constexpr std::uint64_t threads = 3, per_thread = 40'000;
  std::atomic<bool> stop{false};
  std::thread reader([&] {
    while (!stop.load()) CHECK_NOTHROW(recorder.snapshot().validate());
  });
  // The writers stay until all have written: a thread that ended would leave its buffer, oldest records
  // first out, to a writer that started after it.
  std::latch written(threads);
  std::vector<std::thread> writers;
  for (std::uint64_t t = 0; t < threads; ++t)
    writers.emplace_back([&, t] {
      for (std::uint64_t i = 0; i < per_thread; ++i) {
        const auto at = static_cast<std::int64_t>(i);
        recorder.record_worker_span(work, t * per_thread + i, at, at + 1);
        if (i % 4 == 0) recorder.record_counter(gauge, at, static_cast<double>(i));
      }
      written.arrive_and_wait();
    });
  for (auto& w : writers) w.join();
  stop = true;
  reader.join();
  const Snapshot s = recorder.snapshot();
  const std::uint64_t recorded = threads * per_thread * 5 / 4;
  CHECK(s.spans.size() + s.counters.size() + s.dropped == recorded);
  CHECK(s.spans.size() * sizeof(Span) + s.counters.size() * sizeof(CounterSample) <=
        16 * 1024 * sizeof(Span));
  CHECK(s.spans.size() >= threads * 1024);                   // every thread keeps at least its last chunk
  std::map<std::uint64_t, std::vector<std::uint64_t>> kept;  // thread -> indices of its kept spans
  for (const Span& span : s.spans) kept[span.job / per_thread].push_back(span.job % per_thread);
  REQUIRE(kept.size() == threads);
  for (auto& [thread, indices] : kept) {
    std::sort(indices.begin(), indices.end());
    CHECK(indices.back() == per_thread - 1);                        // the newest is there
    CHECK(indices.back() - indices.front() + 1 == indices.size());  // and everything after the oldest
  }
}

TEST_CASE("trace/recorder/job records keep the newest within their share of the limit, names cut short") {
  if (!compiled_in) return;             // nothing is recorded
  Recorder recorder(Clock{}, 4 << 20);  // an eighth, 512 KiB, for job records
  constexpr std::uint64_t jobs = 20'000;
  std::thread other([&] {
    for (std::uint64_t i = 1; i < jobs; i += 2)
      recorder.record_job(JobRecord{i, 0, 1, 2, JobOutcome::failed, std::string(1000, 'x'), "key"});
  });
  for (std::uint64_t i = 0; i < jobs; i += 2)
    recorder.record_job(JobRecord{i, 0, std::nullopt, 2, JobOutcome::proved, "label", "key"});
  other.join();
  const Snapshot s = recorder.snapshot();
  CHECK_NOTHROW(s.validate());
  CHECK(s.jobs.size() + s.dropped == jobs);
  CHECK(s.jobs.size() < jobs);
  CHECK(s.jobs.size() > 512);
  std::uint64_t bytes = 0;
  std::set<std::uint64_t> kept;
  for (const JobRecord& job : s.jobs) {
    bytes += sizeof(JobRecord) + job.label.size() + job.key.size();
    CHECK(job.label.size() <= 160);
    kept.insert(job.job);
  }
  CHECK(bytes <= 512 << 10);
  CHECK(kept.size() == s.jobs.size());
  CHECK((kept.contains(jobs - 1) || kept.contains(jobs - 2)));  // the last of either thread is there
}

TEST_CASE("trace/recorder/scoped span records its scope on the worker track") {
  Recorder recorder;
  const StageId outer = recorder.add_stage("outer");
  const StageId inner = recorder.add_stage("inner");
  const std::int64_t before = recorder.now_ns();
  {
    ScopedSpan a(recorder, outer, 7, 2);
    {
      ScopedSpan b(recorder, inner);
      b.set_bytes(4096);
    }
    a.set_job(8);
  }
  const std::int64_t after = recorder.now_ns();
  const Snapshot s = recorder.snapshot();
  REQUIRE(s.spans.size() == 2);
  const Span& a = s.spans[0].stage == outer ? s.spans[0] : s.spans[1];
  const Span& b = s.spans[0].stage == outer ? s.spans[1] : s.spans[0];
  CHECK(a.job == 8);
  CHECK(a.gpu == 2);
  CHECK(b.job == no_job);
  CHECK(b.bytes == 4096);
  CHECK(b.gpu == no_gpu);
  CHECK(before <= a.begin_ns);
  CHECK(a.begin_ns <= b.begin_ns);
  CHECK(b.end_ns <= a.end_ns);
  CHECK(a.end_ns <= after);
  CHECK(a.track == b.track);
  CHECK(s.track(a.track).name == "cpu worker 0");
  CHECK(a.track == recorder.worker_track());
}

TEST_CASE("trace/recorder/a span that ends before it begins is clamped") {
  Recorder recorder;
  const StageId stage = recorder.add_stage("s");
  const TrackId stream = recorder.add_track("stream", TrackKind::cuda_stream, 0);
  Span span;
  span.begin_ns = 100;
  span.end_ns = 40;
  span.stage = stage;
  span.track = stream;
  recorder.record_span(span);
  recorder.record_worker_span(stage, 1, 500, 300);
  const Snapshot s = recorder.snapshot();
  REQUIRE(s.spans.size() == 2);
  CHECK(s.spans[0].begin_ns == 100);
  CHECK(s.spans[0].end_ns == 100);
  CHECK(s.spans[1].end_ns == 500);
  CHECK_NOTHROW(s.validate());
}

TEST_CASE("trace/recorder/one thread feeding many recorders keeps one buffer and track per recorder") {
  // More recorders than the thread-local cache holds: evicted entries must find their buffer again instead of
  // registering a second worker track.
  constexpr int count = 7;
  std::vector<std::unique_ptr<Recorder>> recorders;
  for (int i = 0; i < count; ++i) recorders.push_back(std::make_unique<Recorder>());
  std::vector<StageId> stages;
  for (auto& r : recorders) stages.push_back(r->add_stage("s"));
  for (int round = 0; round < 50; ++round)
    for (int i = 0; i < count; ++i) recorders[i]->record_worker_span(stages[i], round, round, round + 1);
  for (int i = 0; i < count; ++i) {
    const Snapshot s = recorders[i]->snapshot();
    CHECK(s.spans.size() == 50);
    CHECK(s.tracks.size() == 1);
  }
  // A recorder destroyed and another created: the new one must not see the old one's records.
  recorders[0].reset();
  Recorder fresh;
  fresh.add_stage("s");
  CHECK(fresh.snapshot().spans.empty());
  fresh.record_worker_span(StageId(0), 1, 1, 2);
  CHECK(fresh.snapshot().spans.size() == 1);
}

TEST_CASE("trace/recorder/threads that come and go each get their own track") {
  Recorder recorder;
  const StageId stage = recorder.add_stage("s");
  for (int i = 0; i < 3; ++i) std::thread([&] { ScopedSpan span(recorder, stage, i); }).join();
  const Snapshot s = recorder.snapshot();
  REQUIRE(s.spans.size() == 3);
  std::set<TrackId> tracks;
  for (const Span& span : s.spans) tracks.insert(span.track);
  CHECK(tracks.size() == 3);
}

TEST_CASE("trace/recorder/threads that start after others ended take their buffers over") {
  // A thousand short-lived threads, eight at a time: the buffers are those of the threads recording at once,
  // not one (with its first chunks) for every thread that ever recorded, and every record stays.
  Recorder recorder;
  const StageId stage = recorder.add_stage("s");
  const TrackId gauge = recorder.add_track("gauge", TrackKind::counter);
  constexpr std::uint64_t waves = 125, width = 8;
  for (std::uint64_t wave = 0; wave < waves; ++wave) {
    std::vector<std::thread> threads;
    for (std::uint64_t t = 0; t < width; ++t)
      threads.emplace_back([&, n = wave * width + t] {
        { ScopedSpan span(recorder, stage, n); }
        recorder.record_counter(gauge, static_cast<std::int64_t>(n), static_cast<double>(n));
      });
    for (auto& t : threads) t.join();
  }
  CHECK(recorder.thread_buffers() <= width);
  const Snapshot s = recorder.snapshot();
  CHECK(s.dropped == 0);
  REQUIRE(s.spans.size() == waves * width);
  CHECK(s.counters.size() == waves * width);
  std::set<std::uint64_t> jobs;
  std::set<TrackId> tracks;
  for (const Span& span : s.spans) {
    jobs.insert(span.job);
    tracks.insert(span.track);
  }
  CHECK(jobs.size() == waves * width);
  CHECK(tracks.size() == waves * width);  // still a track of its own for each thread
  CHECK_NOTHROW(s.validate());
}

#endif  // PROOFLINE_TRACE_ENABLED
