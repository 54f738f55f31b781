// Waiting on other threads in tests without fixed sleeps and without hanging: polling with a limit, and a
// gate that test threads wait at until the test opens it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace proofline::test_support {

/// Polls `condition` until it holds (true) or `limit` passes (false). Used to wait until another thread is
/// queued or blocked; a test never sleeps for a fixed time to let a race resolve. The limit only matters
/// when the code under test is wrong, so it is generous.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds limit = std::chrono::seconds(60)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

/// A gate that threads wait at until the test opens it. Opening twice is fine, and the destructor opens it,
/// so a failed check never leaves a thread waiting at it for ever.
class Gate {
 public:
  Gate() = default;
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;
  ~Gate() { open(); }

  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    opened_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    ++waiting_;
    opened_.wait(lock, [&] { return open_; });
    --waiting_;
  }
  /// How many threads wait at the gate now.
  int waiting() {
    std::lock_guard lock(mutex_);
    return waiting_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
  int waiting_ = 0;
};

}  // namespace proofline::test_support
