// A self-pipe: how pipeline threads, key loaders and signal handlers wake the worker's loop, which sleeps in
// poll() on this and the database socket together (LISTEN/NOTIFY wake-ups arrive on the socket). A statement
// waiting on the server watches it too (interruption.hpp), so that a signal reaches a worker blocked there.
#pragma once

#include <chrono>

#include <proofline/util/file_descriptor.hpp>

namespace proofline::fleet::detail {

class Wakeup {
 public:
  Wakeup();
  ~Wakeup();  ///< signals stop writing to it first
  Wakeup(const Wakeup&) = delete;
  Wakeup& operator=(const Wakeup&) = delete;

  /// Async-signal-safe: one byte into the pipe (dropped when the pipe is full: a wake-up is already due).
  void notify() const noexcept;
  /// Sleeps until notify() or until `socket` (when >= 0) is readable, at most `timeout`. Returns true when
  /// the socket is readable. Clears pending wake-ups; returns at once when take_pending() took some.
  bool wait(int socket, std::chrono::milliseconds timeout);
  /// SIGTERM and SIGINT set proofline::stop_signal() and wake this (util/stop_signals.hpp).
  void route_stop_signals() const;

  /// The descriptor that is readable while a wake-up is pending, for a poll() of another waiter.
  int fd() const noexcept { return read_.get(); }
  /// Empties the pipe for another waiter (a statement watching for signals) without losing the wake-ups:
  /// the next wait() returns at once, since a result may have arrived among them.
  void take_pending() noexcept;

 private:
  /// Empties the pipe; true when there was something in it.
  bool clear() noexcept;

  FileDescriptor read_, write_;
  bool taken_ = false;  // wake-ups take_pending() emptied out of the pipe, not yet seen by wait()
};

}  // namespace proofline::fleet::detail
