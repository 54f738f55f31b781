// How long something has had at least one holder: a count of holders and the time accumulated while the
// count was above zero. A GPU counts as occupied while a job is bound to one of its device slots, so the
// rate of its occupied seconds tells an operator whether the host keeps the GPU fed (kernels may still pause
// within it: the trace's busy fraction is the finer measure).
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>

namespace proofline::util {

class OccupancyClock {
 public:
  using Clock = std::chrono::steady_clock;

  void enter(Clock::time_point now = Clock::now()) {
    std::lock_guard lock(mutex_);
    if (holders_++ == 0) since_ = now;
  }

  /// Ignores a leave without an enter (the count never goes below zero).
  void leave(Clock::time_point now = Clock::now()) {
    std::lock_guard lock(mutex_);
    if (holders_ == 0) return;
    if (--holders_ == 0 && now > since_) occupied_ += now - since_;
  }

  std::size_t holders() const {
    std::lock_guard lock(mutex_);
    return holders_;
  }

  /// Occupied time up to `now`, the interval still open included.
  double seconds(Clock::time_point now = Clock::now()) const {
    std::lock_guard lock(mutex_);
    Clock::duration total = occupied_;
    if (holders_ > 0 && now > since_) total += now - since_;
    return std::chrono::duration<double>(total).count();
  }

 private:
  mutable std::mutex mutex_;
  std::size_t holders_ = 0;
  Clock::time_point since_{};
  Clock::duration occupied_{};
};

}  // namespace proofline::util
