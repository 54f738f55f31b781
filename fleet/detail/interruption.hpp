// When a statement waiting on the server is given up. libpq's blocking calls wait for the server for ever: a
// backend that is frozen (stopped, swapped out, its host paused) or a statement waiting on a lock with no
// timeout would hold the worker past any signal, and TCP keepalives only notice a peer that is gone, not one
// that is stuck. A Connection given an Interruption waits in poll() on its socket and on the worker's wake-up
// pipe, where the signal handler writes, and asks this whether to give up each time the pipe wakes it or its
// deadline passes.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include <proofline/fleet/detail/wakeup.hpp>

namespace proofline::fleet::detail {

class Interruption {
 public:
  using Clock = std::chrono::steady_clock;

  /// Never due until give_up_at() says when.
  explicit Interruption(Wakeup& wakeup) noexcept : wakeup_(wakeup) {}

  /// Statements are given up once SIGTERM/SIGINT has arrived `signals` times in all
  /// (proofline::stop_signal_count()), or at `deadline`, which `deadline_name` names in messages ("the drain
  /// timeout").
  void give_up_at(int signals, Clock::time_point deadline = Clock::time_point::max(),
                  std::string deadline_name = {});

  /// The descriptor to poll beside the socket.
  int fd() const noexcept { return wakeup_.fd(); }
  Clock::time_point deadline() const noexcept { return deadline_; }
  /// Takes the wake-ups out of the pipe (the worker's loop still sees them) and says why the statement in
  /// flight is to be given up ("SIGTERM", "the drain timeout"), or nullopt to wait on.
  std::optional<std::string> due();

 private:
  Wakeup& wakeup_;
  int signals_ = 0;  // 0: no signal count gives up
  Clock::time_point deadline_ = Clock::time_point::max();
  std::string deadline_name_;
};

}  // namespace proofline::fleet::detail
