// A self-pipe: how pipeline threads, key loaders and signal handlers wake the worker's loop, which sleeps in
// poll() on this and the database socket together (LISTEN/NOTIFY wake-ups arrive on the socket).
#pragma once

#include <atomic>
#include <chrono>

namespace proofline::fleet::detail {

class Wakeup {
 public:
  Wakeup();
  ~Wakeup();
  Wakeup(const Wakeup&) = delete;
  Wakeup& operator=(const Wakeup&) = delete;

  /// Async-signal-safe: one byte into the pipe (dropped when the pipe is full: a wake-up is already due).
  void notify() const noexcept;
  /// Sleeps until notify() or until `socket` (when >= 0) is readable, at most `timeout`. Returns true when
  /// the socket is readable. Clears pending wake-ups.
  bool wait(int socket, std::chrono::milliseconds timeout);

 private:
  int read_fd_ = -1, write_fd_ = -1;
};

/// Makes SIGTERM and SIGINT set stop_requested() and wake `wakeup` (until the next call; nullptr detaches).
void route_stop_signals(const Wakeup* wakeup);
bool stop_requested() noexcept;
/// The signal that asked to stop (0: none).
int stop_signal() noexcept;

}  // namespace proofline::fleet::detail
