#include <proofline/util/stop_signals.hpp>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>

namespace proofline {

namespace {

volatile std::sig_atomic_t received_signal = 0;
std::atomic<int> received_count{0};
std::atomic<int> signal_wake_fd{-1};  // lock-free, so the handler may read it
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void record_stop_signal(int signal) {
  const int saved_errno = errno;  // write() may change it under the interrupted code
  received_signal = signal;
  received_count.fetch_add(1);
  if (const int fd = signal_wake_fd.load(); fd >= 0) {
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(fd, &byte, 1);
  }
  errno = saved_errno;
}

}  // namespace

void route_stop_signals(int wake_fd) {
  signal_wake_fd.store(wake_fd);
  struct sigaction action {};
  action.sa_handler = record_stop_signal;
  // Each handler runs with every stop signal blocked: a SIGINT landing inside the SIGTERM handler would
  // otherwise interleave with its update of the signal and the count.
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&action.sa_mask, signal);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // A hangup (the terminal or ssh session closed) stops the program as SIGTERM does, finishing what it
  // holds, instead of killing it mid-job; under nohup, which ignores it, it stays ignored.
  struct sigaction hangup {};
  if (sigaction(SIGHUP, nullptr, &hangup) == 0 && hangup.sa_handler != SIG_IGN)
    sigaction(SIGHUP, &action, nullptr);
}

void stop_waking(int wake_fd) noexcept {
  signal_wake_fd.compare_exchange_strong(wake_fd, -1);
}

int stop_signal() noexcept {
  return received_signal;
}

const char* stop_signal_name(int signal) noexcept {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
  }
  return "a stop signal";
}

int stop_signal_count() noexcept {
  return received_count.load();
}

}  // namespace proofline
