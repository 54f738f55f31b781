// Internal: how many jobs synthesize at once. Each synthesis is TBB-parallel inside, so jobs synthesized side
// by side share the host's threads and memory bandwidth: a burst of N jobs started together finishes all N
// at about N times one job's time, and the GPUs wait that long for their first job. The ramp starts with a
// permit per compute consumer (a GPU, or the CPU backend), adds one each time a synthesis finishes while
// more jobs wait for a permit than its own and the idle ones can serve (so the count doubles per round while
// a burst lasts, up to the configured concurrency); a synthesis that finishes while none waits retires its
// permit and the idle ones, down to the floor again: the next burst starts as fast as the first.
//
// Not every synthesis keeps the host busy: a witness generator may be serial (circom's), or stuck waiting on
// something. So the supervisor also asks, every few milliseconds, whether the host's threads were mostly idle
// since the last synthesis started or finished while jobs waited; then one more may start beside the ones
// running, which costs them nothing.
#pragma once

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>

namespace proofline::graph::detail {

/// A permit to synthesize one job: what the synthesis join pairs with a job.
struct SynthesisPermit {};

/// CPU time used by this process's threads so far.
inline std::chrono::nanoseconds process_cpu_time() noexcept {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

class SynthesisRamp {
 public:
  using Clock = std::chrono::steady_clock;

  /// How long the host is watched after a synthesis starts or finishes before its load says anything: a
  /// parallel synthesis has its threads busy well within it.
  static constexpr std::chrono::milliseconds kWindow{20};
  /// Below this share of `cores` busy over the window, the running syntheses leave the host idle.
  static constexpr double kIdleHost = 0.5;

  /// `floor` permits live at the start (at least one), at most `ceiling`; `cores`: the threads the
  /// syntheses may use (the host's load is measured against them).
  SynthesisRamp(std::size_t floor, std::size_t ceiling, std::size_t cores)
      : ceiling_(std::max<std::size_t>(1, ceiling)),
        floor_(std::clamp<std::size_t>(floor, 1, ceiling_)),
        cores_(static_cast<double>(std::max<std::size_t>(1, cores))),
        live_(floor_),
        high_water_(floor_) {}

  std::size_t floor() const noexcept { return floor_; }

  /// A job is on its way to synthesis (counted from before its slot's lease, so that a synthesis finishing
  /// meanwhile sees it coming).
  void arrive() noexcept { waiting_.fetch_add(1, std::memory_order_relaxed); }
  /// It went back to the queue without a slot, or was dropped.
  void leave() noexcept { waiting_.fetch_sub(1, std::memory_order_relaxed); }
  /// Its synthesis starts, with a permit.
  void start() noexcept {
    // Waiting first: read in between, the counts show one job fewer waiting and its permit still idle, which
    // grants nothing; the other order would count the job as waiting while it holds a permit.
    waiting_.fetch_sub(1, std::memory_order_relaxed);
    running_.fetch_add(1, std::memory_order_relaxed);
    progressed(Clock::now(), process_cpu_time());
  }
  /// Whether jobs wait for a permit (or are on their way to one).
  bool jobs_wait() const noexcept { return waiting_.load(std::memory_order_relaxed) > 0; }
  /// A synthesis finished: how many permits to put back (its own and perhaps a new one: 0, 1 or 2).
  std::size_t finish() {
    progressed(Clock::now(), process_cpu_time());
    std::lock_guard lock(mutex_);
    running_.fetch_sub(1, std::memory_order_relaxed);
    if (short_of_permits() && live_ < ceiling_) {
      high_water_ = std::max(high_water_, ++live_);
      return 2;
    }
    if (!jobs_wait() && live_ > floor_) {
      --live_;
      return 0;
    }
    return 1;
  }
  /// No job waits: an idle permit (taken out of the permit buffer) may be retired. False when the floor is
  /// reached (put it back).
  bool retire_idle() {
    std::lock_guard lock(mutex_);
    if (live_ <= floor_) return false;
    --live_;
    return true;
  }
  /// The supervisor's question, with the time and the process's CPU time now: true when one more permit is
  /// granted (put it in the permit buffer) because jobs wait and the host stayed mostly idle since the last
  /// synthesis started or finished (or the last grant).
  bool grow_on_tick(Clock::time_point now, std::chrono::nanoseconds cpu) {
    if (!jobs_wait()) return false;
    const auto since = now - Clock::time_point(Clock::duration(last_wall_.load(std::memory_order_relaxed)));
    if (since < kWindow) return false;
    const double busy =
        static_cast<double>((cpu.count() - last_cpu_.load(std::memory_order_relaxed))) /
        static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(since).count());
    if (busy >= kIdleHost * cores_) return false;
    std::lock_guard lock(mutex_);
    if (!short_of_permits() || live_ >= ceiling_) return false;
    high_water_ = std::max(high_water_, ++live_);
    progressed(now, cpu);
    return true;
  }

  std::size_t live() const {
    std::lock_guard lock(mutex_);
    return live_;
  }
  /// The most permits live at once since the start.
  std::size_t high_water() const {
    std::lock_guard lock(mutex_);
    return high_water_;
  }

 private:
  /// More jobs wait than there are idle permits (a job that arrived may be about to take one; the permit
  /// of a synthesis that just finished is counted idle). Under the mutex.
  bool short_of_permits() const noexcept {
    const std::ptrdiff_t idle = static_cast<std::ptrdiff_t>(live_) - running_.load(std::memory_order_relaxed);
    return waiting_.load(std::memory_order_relaxed) > idle;
  }

  void progressed(Clock::time_point now, std::chrono::nanoseconds cpu) noexcept {
    last_cpu_.store(cpu.count(), std::memory_order_relaxed);
    last_wall_.store(now.time_since_epoch().count(), std::memory_order_relaxed);
  }

  const std::size_t ceiling_;
  const std::size_t floor_;
  const double cores_;
  std::atomic<std::ptrdiff_t> waiting_{0};
  std::atomic<std::ptrdiff_t> running_{0};  // syntheses under way, each holding a permit
  // When a synthesis last started or finished (or a permit was granted), and the process's CPU time then.
  std::atomic<Clock::rep> last_wall_{Clock::now().time_since_epoch().count()};
  std::atomic<std::chrono::nanoseconds::rep> last_cpu_{process_cpu_time().count()};
  mutable std::mutex mutex_;
  std::size_t live_;
  std::size_t high_water_;
};

}  // namespace proofline::graph::detail
