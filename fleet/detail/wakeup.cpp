#include <proofline/fleet/detail/wakeup.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <proofline/util/error.hpp>

namespace proofline::fleet::detail {

namespace {

std::atomic<const Wakeup*> signal_target{nullptr};
volatile sig_atomic_t received_signal = 0;

void on_stop_signal(int signal) {
  received_signal = signal;
  if (const Wakeup* w = signal_target.load()) w->notify();
}

}  // namespace

Wakeup::Wakeup() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
    throw Error(Errc::io, std::string("cannot make the worker's wake-up pipe: ") + std::strerror(errno));
  read_fd_ = fds[0];
  write_fd_ = fds[1];
}

Wakeup::~Wakeup() {
  if (signal_target.load() == this) signal_target.store(nullptr);
  close(read_fd_);
  close(write_fd_);
}

void Wakeup::notify() const noexcept {
  const char byte = 1;
  [[maybe_unused]] const ssize_t written = write(write_fd_, &byte, 1);
}

bool Wakeup::wait(int socket, std::chrono::milliseconds timeout) {
  pollfd fds[2] = {{read_fd_, POLLIN, 0}, {socket, POLLIN, 0}};
  const int count = socket >= 0 ? 2 : 1;
  const int ready = poll(fds, static_cast<nfds_t>(count), static_cast<int>(timeout.count()));
  if (ready > 0 && (fds[0].revents & POLLIN)) {
    char sink[256];
    while (read(read_fd_, sink, sizeof sink) > 0) {
    }
  }
  return ready > 0 && count == 2 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0;
}

void route_stop_signals(const Wakeup* wakeup) {
  signal_target.store(wakeup);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool stop_requested() noexcept {
  return received_signal != 0;
}

int stop_signal() noexcept {
  return received_signal;
}

}  // namespace proofline::fleet::detail
