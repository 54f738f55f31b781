#include <proofline/trace/recorder.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include <proofline/trace/detail/chunk_list.hpp>
#include <proofline/trace/nvtx.hpp>
#include <proofline/util/error.hpp>

namespace proofline::trace {

namespace detail {

/// True while a thread runs; false (stored with release) once it has ended.
using ThreadAlive = std::shared_ptr<std::atomic<bool>>;

/// What one OS thread has recorded into one recorder. Only that thread appends; snapshot() reads. When the
/// thread ends, the next thread that records into the recorder takes the buffer over (records and all).
class ThreadBuffer {
 public:
  ThreadBuffer(std::uint64_t thread_serial, ThreadAlive owner, ChunkLimit& limit)
      : thread_serial_(thread_serial), owner_(std::move(owner)), spans_(limit), counters_(limit) {}

  /// Its thread's (the last one's, once it has ended: serials are never reused).
  std::uint64_t thread_serial() const noexcept { return thread_serial_; }
  /// Its thread has ended. The acquire load makes that thread's appends visible to the one taking over.
  bool orphaned() const noexcept { return !owner_->load(std::memory_order_acquire); }
  /// The calling thread takes the buffer of an ended thread over (under the recorder's mutex).
  void adopt(std::uint64_t thread_serial, ThreadAlive owner) noexcept {
    thread_serial_ = thread_serial;
    owner_ = std::move(owner);
    worker_track.reset();  // a thread gets a track of its own
  }
  ChunkList<Span, 1024>& spans() noexcept { return spans_; }
  ChunkList<CounterSample, 512>& counters() noexcept { return counters_; }
  const ChunkList<Span, 1024>& spans() const noexcept { return spans_; }
  const ChunkList<CounterSample, 512>& counters() const noexcept { return counters_; }

  /// Owner thread only.
  std::optional<TrackId> worker_track;

 private:
  std::uint64_t thread_serial_;  // changed under the recorder's mutex
  ThreadAlive owner_;            // changed under the recorder's mutex
  ChunkList<Span, 1024> spans_;
  ChunkList<CounterSample, 512> counters_;
};

}  // namespace detail

namespace {

/// A job record's label and key name are cut to this: the records must stay small whatever callers pass.
constexpr std::size_t kJobTextLimit = 160;

std::uint64_t job_record_bytes(const JobRecord& job) {
  return sizeof(JobRecord) + job.label.capacity() + job.key.capacity();
}

std::atomic<std::uint64_t> next_recorder_uid{1};
std::atomic<std::uint64_t> next_thread_serial{1};

// A thread's buffers in the last few recorders it used. Keyed by recorder uid, which is never reused, so an
// entry of a destroyed recorder can never match again.
struct CacheEntry {
  std::uint64_t recorder_uid = 0;
  detail::ThreadBuffer* buffer = nullptr;
};
constexpr std::size_t cache_size = 4;
thread_local CacheEntry tls_cache[cache_size];
thread_local std::size_t tls_victim = 0;
thread_local std::uint64_t tls_thread_serial = 0;  // unlike std::thread::id, never reused by a later thread
thread_local bool tls_ended = false;  // plain data, so still readable while the thread-locals are destroyed

/// Marks the thread ended when it exits, so that its buffers go to threads that start later: a process whose
/// threads come and go (a thread per request, pools that retire idle threads) would otherwise keep a buffer,
/// with its first chunks, for every thread that ever recorded.
struct ThreadLife {
  detail::ThreadAlive alive;
  ~ThreadLife() {
    // Another thread may take its buffers from the store below on: what this thread records later (in
    // another thread-local's destructor) is dropped, not appended through the cache to a buffer now shared.
    tls_ended = true;
    for (CacheEntry& entry : tls_cache) entry = CacheEntry{};
    if (alive) alive->store(false, std::memory_order_release);
  }
};
thread_local ThreadLife tls_life;

std::uint64_t this_thread_serial() noexcept {
  if (tls_thread_serial == 0) tls_thread_serial = next_thread_serial.fetch_add(1, std::memory_order_relaxed);
  return tls_thread_serial;
}

}  // namespace

Recorder::Recorder() : Recorder(Clock{}) {}

Recorder::Recorder(Clock clock, std::uint64_t memory_limit)
    : uid_(next_recorder_uid.fetch_add(1, std::memory_order_relaxed)),
      clock_(clock),
      limit_(std::make_unique<detail::ChunkLimit>(memory_limit)),
      job_bytes_limit_(std::max<std::uint64_t>(memory_limit / 8, std::uint64_t{64} << 10)) {}

Recorder::~Recorder() = default;

StageId Recorder::add_stage(std::string_view name) {
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < stage_names_.size(); ++i)
    if (stage_names_[i] == name) return StageId(static_cast<std::uint16_t>(i));
  if (stage_names_.size() == max_stages)
    throw Error(Errc::invalid_argument, "trace: cannot register stage '" + std::string(name) +
                                            "': more than " + std::to_string(max_stages) + " stages");
  stage_names_.emplace_back(name);
  const std::size_t id = stage_names_.size() - 1;
  stage_cstr_[id].store(stage_names_.back().c_str(), std::memory_order_release);
  return StageId(static_cast<std::uint16_t>(id));
}

TrackId Recorder::add_track(std::string_view name, TrackKind kind, int gpu) {
  if (gpu < no_gpu || gpu > 32767)
    throw Error(Errc::invalid_argument,
                "trace: track '" + std::string(name) + "' has an invalid GPU index " + std::to_string(gpu));
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < tracks_.size(); ++i)
    if (tracks_[i].name == name && tracks_[i].kind == kind && tracks_[i].gpu == gpu)
      return TrackId(static_cast<std::uint32_t>(i));
  tracks_.push_back(TrackInfo{std::string(name), kind, gpu});
  return TrackId(static_cast<std::uint32_t>(tracks_.size() - 1));
}

TrackId Recorder::register_worker(detail::ThreadBuffer& buffer) {
  std::string name;
  {
    std::lock_guard lock(mutex_);
    name = "cpu worker " + std::to_string(workers_++);
    tracks_.push_back(TrackInfo{name, TrackKind::cpu_worker, no_gpu});
    buffer.worker_track = TrackId(static_cast<std::uint32_t>(tracks_.size() - 1));
  }
  if (nvtx()) nvtx_name_current_thread(("proofline " + name).c_str());
  return *buffer.worker_track;
}

TrackId Recorder::worker_track() {
  detail::ThreadBuffer* buffer = local_buffer();
  if (buffer == nullptr) throw Error(Errc::io, "trace: out of memory registering a worker track");
  if (buffer->worker_track) return *buffer->worker_track;
  return register_worker(*buffer);
}

const char* Recorder::stage_name(StageId id) const noexcept {
  if (index(id) >= max_stages) return "";
  const char* name = stage_cstr_[index(id)].load(std::memory_order_acquire);
  return name != nullptr ? name : "";
}

detail::ThreadBuffer* Recorder::local_buffer() noexcept {
  for (const CacheEntry& entry : tls_cache)
    if (entry.recorder_uid == uid_) return entry.buffer;
  return local_buffer_slow();
}

detail::ThreadBuffer* Recorder::local_buffer_slow() noexcept {
  if (tls_ended) return nullptr;
  try {
    const std::uint64_t serial = this_thread_serial();
    if (!tls_life.alive) tls_life.alive = std::make_shared<std::atomic<bool>>(true);
    detail::ThreadBuffer* found = nullptr;
    {
      std::lock_guard lock(mutex_);
      detail::ThreadBuffer* orphan = nullptr;
      for (const auto& buffer : buffers_) {
        if (buffer->thread_serial() == serial) found = buffer.get();
        if (orphan == nullptr && buffer->orphaned()) orphan = buffer.get();
      }
      if (found == nullptr && orphan != nullptr) {
        orphan->adopt(serial, tls_life.alive);
        found = orphan;
      }
      if (found == nullptr) {
        buffers_.push_back(std::make_unique<detail::ThreadBuffer>(serial, tls_life.alive, *limit_));
        found = buffers_.back().get();
      }
    }
    tls_cache[tls_victim] = CacheEntry{uid_, found};
    tls_victim = (tls_victim + 1) % cache_size;
    return found;
  } catch (...) {
    return nullptr;
  }
}

void Recorder::append_span(const Span& span) noexcept {
  detail::ThreadBuffer* buffer = local_buffer();
  Span copy = span;
  if (copy.end_ns < copy.begin_ns) copy.end_ns = copy.begin_ns;
  if (buffer == nullptr || !buffer->spans().push(copy)) dropped_.fetch_add(1, std::memory_order_relaxed);
}

void Recorder::append_worker_span(StageId stage, std::uint64_t job, std::int64_t begin_ns,
                                  std::int64_t end_ns, std::uint64_t bytes, int gpu) noexcept {
  detail::ThreadBuffer* buffer = local_buffer();
  if (buffer == nullptr) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (!buffer->worker_track) {
    try {
      register_worker(*buffer);
    } catch (...) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  Span span;
  span.begin_ns = begin_ns;
  span.end_ns = std::max(begin_ns, end_ns);
  span.job = job;
  span.bytes = bytes;
  span.stage = stage;
  span.gpu = static_cast<std::int16_t>(gpu);
  span.track = *buffer->worker_track;
  if (!buffer->spans().push(span)) dropped_.fetch_add(1, std::memory_order_relaxed);
}

void Recorder::append_counter(const CounterSample& sample) noexcept {
  detail::ThreadBuffer* buffer = local_buffer();
  if (buffer == nullptr || !buffer->counters().push(sample)) dropped_.fetch_add(1, std::memory_order_relaxed);
}

void Recorder::append_job(JobRecord job) noexcept {
  try {
    for (std::string* text : {&job.label, &job.key}) {
      if (text->size() > kJobTextLimit) text->resize(kJobTextLimit);
      text->shrink_to_fit();
    }
    const std::uint64_t bytes = job_record_bytes(job);
    std::lock_guard lock(jobs_mutex_);
    while (!jobs_.empty() && job_bytes_ + bytes > job_bytes_limit_) {
      job_bytes_ -= job_record_bytes(jobs_.front());
      jobs_.pop_front();
      dropped_.fetch_add(1, std::memory_order_relaxed);
    }
    if (bytes > job_bytes_limit_) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    jobs_.push_back(std::move(job));
    job_bytes_ += bytes;
  } catch (...) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
  }
}

std::size_t Recorder::thread_buffers() const {
  std::lock_guard lock(mutex_);
  return buffers_.size();
}

Snapshot Recorder::snapshot() const {
  Snapshot out;
  {
    std::lock_guard lock(mutex_);
    out.stages.assign(stage_names_.begin(), stage_names_.end());
    out.tracks = tracks_;
    std::lock_guard walking(limit_->readers);  // no writer moves a list's head meanwhile
    for (const auto& buffer : buffers_) {
      buffer->spans().append_to(out.spans);
      buffer->counters().append_to(out.counters);
    }
  }
  {
    std::lock_guard lock(jobs_mutex_);
    out.jobs.assign(jobs_.begin(), jobs_.end());
  }
  out.dropped = dropped_.load(std::memory_order_relaxed) + limit_->dropped.load(std::memory_order_relaxed);
  out.sort();
  return out;
}

}  // namespace proofline::trace
