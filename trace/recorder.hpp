// Recorder: collects the spans and counter samples of one run, cheaply enough to stay on in production.
//
// Registration (stages, tracks) takes a mutex and happens at setup. Recording appends to a per-thread chunked
// buffer found through a small thread-local cache: no lock, no allocation except one chunk per 1024 spans,
// about the cost of a few stores. Any thread may record onto any track (a host-callback or poller thread
// records a CUDA stream's spans); snapshot() may run concurrently with recording and merges what was
// published so far. The records live within a memory limit: past it each thread reuses its oldest chunk, so
// a recorder that runs for days keeps its most recent records (a batch's whole run, at the default) and
// snapshot().dropped counts what went. A thread that ends leaves its buffer, records and all, to the next
// thread that starts recording, so buffers are bounded by the threads recording at once. Each job's life
// (queued, in flight, outcome, label) is one record under a mutex, kept within an eighth of the limit (64 KiB
// at least), oldest first out.
//
// With PROOFLINE_TRACE=OFF the record_* functions are empty (registration still works and snapshot() returns
// the registered stages and tracks with no spans).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/trace/clock.hpp>
#include <proofline/trace/config.hpp>
#include <proofline/trace/snapshot.hpp>
#include <proofline/trace/span.hpp>

namespace proofline::trace {

namespace detail {
class ThreadBuffer;
struct ChunkLimit;
}  // namespace detail

class Recorder {
 public:
  /// The most stages one recorder registers (stage names are looked up lock-free in a fixed table).
  static constexpr std::size_t max_stages = 256;

  /// Bytes of spans and counter samples a recorder keeps by default (about 1.5 million spans).
  static constexpr std::uint64_t default_memory_limit = std::uint64_t{64} << 20;

  Recorder();
  explicit Recorder(Clock clock, std::uint64_t memory_limit = default_memory_limit);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Returns the id of `name`, registering it on first use. Throws Error(invalid_argument) past max_stages.
  StageId add_stage(std::string_view name);
  /// Returns the id of the track (name, kind, gpu), registering it on first use.
  TrackId add_track(std::string_view name, TrackKind kind, int gpu = no_gpu);
  /// The calling thread's CPU track, registered on first use as "cpu worker N" (N counts threads from 0 in
  /// the order they first asked). When NVTX is on, the OS thread gets the same name in Nsight Systems.
  TrackId worker_track();
  /// Lock-free; "" for an unknown id. The pointer lives as long as the recorder.
  const char* stage_name(StageId id) const noexcept;

  /// Whether ScopedSpan also pushes an NVTX range named after its stage (off by default).
  void set_nvtx(bool on) noexcept { nvtx_.store(on, std::memory_order_relaxed); }
  bool nvtx() const noexcept { return nvtx_.load(std::memory_order_relaxed); }

  const Clock& clock() const noexcept { return clock_; }
  std::int64_t now_ns() const noexcept { return clock_.now_ns(); }

  /// Records a span on any track (a CUDA stream's, typically, with times from GpuClockAnchor). An end before
  /// the begin is clamped to the begin.
  void record_span(const Span& span) noexcept {
    if constexpr (compiled_in) append_span(span);
  }
  /// Records a span on the calling thread's worker track.
  void record_worker_span(StageId stage, std::uint64_t job, std::int64_t begin_ns, std::int64_t end_ns,
                          std::uint64_t bytes = 0, int gpu = no_gpu) noexcept {
    if constexpr (compiled_in) append_worker_span(stage, job, begin_ns, end_ns, bytes, gpu);
  }
  /// Samples a counter at t_ns. Counters that are drawn stacked (a pool's leased and idle bytes) should be
  /// sampled with one shared t_ns, or the sum shows a spike for the nanoseconds between the two samples.
  void record_counter(TrackId track, std::int64_t t_ns, double value) noexcept {
    if constexpr (compiled_in) append_counter(CounterSample{t_ns, value, track});
  }
  /// Samples a counter now.
  void record_counter(TrackId track, double value) noexcept {
    if constexpr (compiled_in) append_counter(CounterSample{now_ns(), value, track});
  }

  /// Records how a job lived and ended (once per job, when its result is delivered). Takes a mutex: jobs are
  /// thousands of times rarer than spans.
  void record_job(JobRecord job) noexcept {
    if constexpr (compiled_in) append_job(std::move(job));
  }

  /// A merged, sorted copy of the registrations and of every record published so far.
  Snapshot snapshot() const;

  /// The per-thread buffers it holds: one for each thread recording now, and those of threads that have
  /// ended, until threads that start later take them over.
  std::size_t thread_buffers() const;

 private:
  void append_span(const Span& span) noexcept;
  void append_worker_span(StageId stage, std::uint64_t job, std::int64_t begin_ns, std::int64_t end_ns,
                          std::uint64_t bytes, int gpu) noexcept;
  void append_counter(const CounterSample& sample) noexcept;
  void append_job(JobRecord job) noexcept;
  detail::ThreadBuffer* local_buffer() noexcept;
  detail::ThreadBuffer* local_buffer_slow() noexcept;
  TrackId register_worker(detail::ThreadBuffer& buffer);

  const std::uint64_t uid_;  // never reused, so stale thread-local cache entries never match
  const Clock clock_;
  std::atomic<bool> nvtx_{false};
  std::atomic<std::uint64_t> dropped_{0};
  const std::unique_ptr<detail::ChunkLimit> limit_;  // before buffers_, which give their chunks back to it
  std::array<std::atomic<const char*>, max_stages> stage_cstr_{};

  mutable std::mutex mutex_;             // guards everything below
  std::deque<std::string> stage_names_;  // a deque: c_str() pointers stay valid as it grows
  std::vector<TrackInfo> tracks_;
  std::vector<std::unique_ptr<detail::ThreadBuffer>> buffers_;
  std::uint32_t workers_ = 0;

  mutable std::mutex jobs_mutex_;  // guards the job records
  std::deque<JobRecord> jobs_;
  std::uint64_t job_bytes_ = 0;  // what jobs_ holds, as job_record_bytes() counts it
  const std::uint64_t job_bytes_limit_;
};

}  // namespace proofline::trace
