// One callback that a memory object calls when it gains capacity (a budget's bytes released, a pool's slot
// returned), so that whoever hands out work can react to the event instead of polling. The callback runs on
// the releasing thread with no lock of the notifier held; it must not block.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>

namespace proofline::memory {

class Listener {
 public:
  /// Replaces the callback (empty: none). Waits for calls in flight, so that what the old callback refers to
  /// may be destroyed as soon as this returns.
  void set(std::function<void()> callback) {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return calls_ == 0; });
    callback_ = std::move(callback);
  }

  /// Calls the callback, if any; exceptions it throws are swallowed (a notification cannot fail its
  /// notifier).
  void notify() noexcept {
    {
      std::lock_guard lock(mutex_);
      if (!callback_) return;
      ++calls_;
    }
    try {
      callback_();
    } catch (...) {
    }
    std::lock_guard lock(mutex_);
    if (--calls_ == 0) idle_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable idle_;
  std::function<void()> callback_;  // replaced only while no call is in flight
  std::size_t calls_ = 0;
};

}  // namespace proofline::memory
