// A self-pipe: how pipeline threads, key loaders and signal handlers wake the worker's loop, which sleeps in
// poll() on this and the database socket together (LISTEN/NOTIFY wake-ups arrive on the socket).
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
  /// the socket is readable. Clears pending wake-ups.
  bool wait(int socket, std::chrono::milliseconds timeout);
  /// SIGTERM and SIGINT set proofline::stop_signal() and wake this (util/stop_signals.hpp).
  void route_stop_signals() const;

 private:
  FileDescriptor read_, write_;
};

}  // namespace proofline::fleet::detail
