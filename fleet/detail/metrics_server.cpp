#include <proofline/fleet/detail/metrics_server.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::fleet::detail {

namespace {

/// How long one client may take to send its request and read the answer.
constexpr std::chrono::milliseconds client_patience{2000};
/// The most a request's head may hold (a scraper's is a few hundred bytes).
constexpr std::size_t max_request_bytes = 8192;

std::string_view reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
  }
  return "Unknown";
}

/// Splits "HOST:PORT", ":PORT" and "[V6]:PORT".
std::pair<std::string, std::string> split_address(std::string_view address) {
  const auto colon = address.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == address.size())
    throw OptionError("--metrics " + quote_for_message(address, 80, '\'') + ": give HOST:PORT or :PORT");
  std::string_view host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return {std::string(host), std::string(address.substr(colon + 1))};
}

FileDescriptor listen_on(const std::string& host, const std::string& port, std::string_view address,
                         std::string& bound) {
  const auto refuse = [&](const std::string& why) {
    return OptionError("--metrics " + quote_for_message(address, 80, '\'') + ": " + why);
  };
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 || std::stoi(port) > 65535)
    throw refuse("the port must be a number from 0 to 65535");
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (const int error = ::getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &found))
    throw refuse(std::string("cannot resolve the host: ") + ::gai_strerror(error));
  std::string why = "no address to listen on";
  FileDescriptor listener;
  for (addrinfo* a = found; a != nullptr && listener.get() < 0; a = a->ai_next) {
    FileDescriptor fd(::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol));
    if (fd.get() < 0) continue;
    const int yes = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd.get(), a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd.get(), 16) != 0) {
      why = std::strerror(errno);
      continue;
    }
    listener = std::move(fd);
  }
  ::freeaddrinfo(found);
  if (listener.get() < 0) throw refuse("cannot listen: " + why);
  sockaddr_storage local{};
  socklen_t length = sizeof local;
  ::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&local), &length);
  char text[INET6_ADDRSTRLEN] = "?";
  int bound_port = 0;
  if (local.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&local);
    ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    bound_port = ntohs(v6->sin6_port);
    bound = "[" + std::string(text) + "]:" + std::to_string(bound_port);
  } else {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&local);
    ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    bound_port = ntohs(v4->sin_port);
    bound = std::string(text) + ":" + std::to_string(bound_port);
  }
  return listener;
}

}  // namespace

MetricsServer::MetricsServer(std::string_view address, Handler handler) : handler_(std::move(handler)) {
  const auto [host, port] = split_address(address);
  listener_ = listen_on(host, port, address, bound_);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
    throw Error(Errc::io, std::string("metrics endpoint: cannot make a pipe: ") + std::strerror(errno));
  stop_read_ = FileDescriptor(fds[0]);
  stop_write_ = FileDescriptor(fds[1]);
  thread_ = std::thread([this] { serve(); });
}

MetricsServer::~MetricsServer() {
  const char byte = 1;
  (void)!::write(stop_write_.get(), &byte, 1);
  thread_.join();
}

void MetricsServer::serve() {
  while (true) {
    pollfd fds[2] = {{listener_.get(), POLLIN, 0}, {stop_read_.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) {
      PL_LOG_ERROR("metrics endpoint {}: poll: {}; no more metrics", bound_, std::strerror(errno));
      return;
    }
    if (fds[1].revents != 0) return;
    if (fds[0].revents == 0) continue;
    FileDescriptor client(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (client.get() >= 0) answer(client.get());
  }
}

bool MetricsServer::wait_for(int client, short events, Clock::time_point deadline) const {
  while (true) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd fds[2] = {{client, events, 0}, {stop_read_.get(), POLLIN, 0}};
    const int ready = ::poll(fds, 2, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    return ready > 0 && fds[1].revents == 0 && (fds[0].revents & (POLLERR | POLLNVAL)) == 0;
  }
}

bool MetricsServer::send_all(int client, std::string_view data, Clock::time_point deadline) const {
  while (!data.empty()) {
    const ssize_t sent = ::send(client, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent > 0) {
      data.remove_prefix(static_cast<std::size_t>(sent));
    } else if (sent < 0 && errno == EINTR) {
      continue;
    } else if (!(sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) ||
               !wait_for(client, POLLOUT, deadline)) {
      return false;
    }
  }
  return true;
}

void MetricsServer::answer(int client) {
  const Clock::time_point deadline = Clock::now() + client_patience;
  std::string request;
  while (request.find("\r\n\r\n") == std::string::npos && request.find("\n\n") == std::string::npos) {
    if (request.size() >= max_request_bytes) break;
    char buffer[1024];
    const ssize_t got = ::recv(client, buffer, sizeof buffer, 0);
    if (got > 0) {
      request.append(buffer, static_cast<std::size_t>(got));
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_for(client, POLLIN, deadline)) return;
    } else {
      return;  // closed before a whole request: nothing to answer
    }
  }
  // "GET /metrics HTTP/1.1": the method, the target, the version.
  const std::string_view line = std::string_view(request).substr(0, request.find_first_of("\r\n"));
  const auto first_space = line.find(' ');
  const auto second_space =
      line.find(' ', first_space == std::string_view::npos ? line.size() : first_space + 1);
  Response response;
  bool head = false;
  if (first_space == std::string_view::npos || second_space == std::string_view::npos ||
      !line.substr(second_space + 1).starts_with("HTTP/1.")) {
    response = {400, "text/plain; charset=utf-8", "bad request\n"};
  } else if (const std::string_view method = line.substr(0, first_space);
             method != "GET" && method != "HEAD") {
    response = {405, "text/plain; charset=utf-8", "only GET and HEAD\n"};
  } else {
    head = method == "HEAD";
    std::string_view target = line.substr(first_space + 1, second_space - first_space - 1);
    target = target.substr(0, target.find('?'));
    try {
      response = handler_(target);
    } catch (const std::exception& e) {
      PL_LOG_WARN("metrics endpoint {}: {}", bound_, e.what());
      response = {500, "text/plain; charset=utf-8", "internal error\n"};
    }
  }
  std::string head_text =
      "HTTP/1.1 " + std::to_string(response.status) + " " + std::string(reason(response.status)) +
      "\r\nContent-Type: " + response.content_type +
      "\r\nContent-Length: " + std::to_string(response.body.size()) + "\r\nConnection: close\r\n\r\n";
  if (!send_all(client, head_text, deadline) || (!head && !send_all(client, response.body, deadline))) return;
  // Closing with unread bytes from the client (a request cut short above) would send a reset that may
  // discard the answer before the client reads it: say we are done, and read until the client is too.
  ::shutdown(client, SHUT_WR);
  char sink[1024];
  while (true) {
    const ssize_t got = ::recv(client, sink, sizeof sink, 0);
    if (got > 0 || (got < 0 && errno == EINTR)) continue;
    if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) || !wait_for(client, POLLIN, deadline)) return;
  }
}

}  // namespace proofline::fleet::detail
