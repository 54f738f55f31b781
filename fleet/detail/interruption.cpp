#include <proofline/fleet/detail/interruption.hpp>

#include <signal.h>

#include <proofline/util/stop_signals.hpp>

namespace proofline::fleet::detail {

void Interruption::give_up_at(int signals, Clock::time_point deadline, std::string deadline_name) {
  signals_ = signals;
  deadline_ = deadline;
  deadline_name_ = std::move(deadline_name);
}

std::optional<std::string> Interruption::due() {
  wakeup_.take_pending();
  if (signals_ > 0 && stop_signal_count() >= signals_) {
    const int signal = stop_signal();
    const char* name = signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "a stop signal";
    return std::string(signals_ == 1 ? "" : signals_ == 2 ? "a second " : "another ") + name;
  }
  if (Clock::now() >= deadline_) return deadline_name_.empty() ? std::string("a deadline") : deadline_name_;
  return std::nullopt;
}

}  // namespace proofline::fleet::detail
