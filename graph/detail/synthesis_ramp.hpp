// Internal: how many jobs synthesize at once. Each synthesis is TBB-parallel inside, so jobs synthesized side
// by side share the host's threads and memory bandwidth: a burst of N jobs started together finishes all N
// at about N times one job's time, and the GPUs wait that long for their first job. The ramp starts with a
// permit per compute consumer (a GPU, or the CPU backend), adds one each time a synthesis finishes while
// jobs wait for a permit (so the count doubles per round while a burst lasts, up to the configured
// concurrency, for witness sources with serial parts); a synthesis that finishes while none waits retires
// its permit and the idle ones, down to the floor again: the next burst starts as fast as the first.
// One event is a clock's: when jobs wait and no synthesis has started or finished for a while, the ones
// running are slow or stuck (a witness callback waiting on something), and one more job may start beside
// them (the supervisor asks), so that no job waits behind a stuck one.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>

namespace proofline::graph::detail {

/// A permit to synthesize one job: what the synthesis join pairs with a job.
struct SynthesisPermit {};

class SynthesisRamp {
 public:
  using Clock = std::chrono::steady_clock;

  /// Longer than one job's synthesis with every thread up to 2^24 rows on the machines measured, so that the
  /// ramp itself goes by events; only a slow or stuck synthesis lets this much time pass.
  static constexpr std::chrono::milliseconds kStall{1000};

  /// `floor` permits live at the start (at least one), at most `ceiling`.
  SynthesisRamp(std::size_t floor, std::size_t ceiling)
      : ceiling_(std::max<std::size_t>(1, ceiling)),
        floor_(std::clamp<std::size_t>(floor, 1, ceiling_)),
        live_(floor_),
        high_water_(floor_) {}

  std::size_t floor() const noexcept { return floor_; }

  /// A job is on its way to synthesis (counted from before its slot's lease, so that a synthesis finishing
  /// meanwhile sees it coming).
  void arrive() noexcept { waiting_.fetch_add(1, std::memory_order_relaxed); }
  /// It left: its synthesis starts, or it went back to the queue without a slot.
  void leave() noexcept {
    waiting_.fetch_sub(1, std::memory_order_relaxed);
    progressed(Clock::now());
  }
  /// A synthesis finished: how many permits to put back (its own and perhaps a new one: 0, 1 or 2).
  std::size_t finish() {
    const bool someone_waits = waiting_.load(std::memory_order_relaxed) > 0;
    progressed(Clock::now());
    std::lock_guard lock(mutex_);
    if (someone_waits && live_ < ceiling_) {
      high_water_ = std::max(high_water_, ++live_);
      return 2;
    }
    if (!someone_waits && live_ > floor_) {
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
  /// Jobs wait and no synthesis has started or finished for kStall: true when one more permit is granted
  /// (put it in the permit buffer).
  bool grow_if_stalled(Clock::time_point now) {
    if (waiting_.load(std::memory_order_relaxed) <= 0 || now - last_progress() < kStall) return false;
    std::lock_guard lock(mutex_);
    if (live_ >= ceiling_) return false;
    high_water_ = std::max(high_water_, ++live_);
    progressed(now);
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
  void progressed(Clock::time_point now) noexcept {
    last_progress_ns_.store(now.time_since_epoch().count(), std::memory_order_relaxed);
  }
  Clock::time_point last_progress() const noexcept {
    return Clock::time_point(Clock::duration(last_progress_ns_.load(std::memory_order_relaxed)));
  }

  const std::size_t ceiling_;
  const std::size_t floor_;
  std::atomic<std::ptrdiff_t> waiting_{0};
  std::atomic<Clock::rep> last_progress_ns_{Clock::now().time_since_epoch().count()};
  mutable std::mutex mutex_;
  std::size_t live_;
  std::size_t high_water_;
};

}  // namespace proofline::graph::detail
