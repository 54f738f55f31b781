#include <proofline/fleet/detail/wakeup.hpp>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <proofline/util/error.hpp>
#include <proofline/util/stop_signals.hpp>

namespace proofline::fleet::detail {

Wakeup::Wakeup() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
    throw Error(Errc::io, std::string("cannot make the worker's wake-up pipe: ") + std::strerror(errno));
  read_ = FileDescriptor(fds[0]);
  write_ = FileDescriptor(fds[1]);
}

Wakeup::~Wakeup() {
  stop_waking(write_.get());
}

void Wakeup::notify() const noexcept {
  const char byte = 1;
  [[maybe_unused]] const ssize_t written = write(write_.get(), &byte, 1);
}

bool Wakeup::wait(int socket, std::chrono::milliseconds timeout) {
  pollfd fds[2] = {{read_.get(), POLLIN, 0}, {socket, POLLIN, 0}};
  const int count = socket >= 0 ? 2 : 1;
  const int wait_ms = taken_ ? 0 : static_cast<int>(timeout.count());
  taken_ = false;
  const int ready = poll(fds, static_cast<nfds_t>(count), wait_ms);
  if (ready > 0 && (fds[0].revents & POLLIN)) clear();
  return ready > 0 && count == 2 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0;
}

void Wakeup::take_pending() noexcept {
  if (clear()) taken_ = true;
}

bool Wakeup::clear() noexcept {
  bool any = false;
  char sink[256];
  while (read(read_.get(), sink, sizeof sink) > 0) any = true;
  return any;
}

void Wakeup::route_stop_signals() const {
  proofline::route_stop_signals(write_.get());
}

}  // namespace proofline::fleet::detail
