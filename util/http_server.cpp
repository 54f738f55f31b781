#include <proofline/util/http_server.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

namespace proofline {

namespace {

FileDescriptor listen_on(const HttpServerOptions& options, const std::string& host, const std::string& port,
                         std::string_view address, std::string& bound) {
  const auto refuse = [&](const std::string& why) {
    return OptionError(options.option + " " + quote_for_message(address, 80, '\'') + ": " + why);
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
  // ":PORT" means every interface, of both families: IPv6's wildcard first, taking IPv4 too (v4-mapped),
  // then IPv4's alone where the host has no IPv6.
  std::vector<addrinfo*> candidates;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) candidates.push_back(a);
  if (host.empty())
    std::stable_partition(candidates.begin(), candidates.end(),
                          [](const addrinfo* a) { return a->ai_family == AF_INET6; });
  for (addrinfo* a : candidates) {
    if (listener.get() >= 0) break;
    FileDescriptor fd(::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol));
    if (fd.get() < 0) continue;
    const int yes = 1, no = 0;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (host.empty() && a->ai_family == AF_INET6)
      ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &no, sizeof no);
    if (::bind(fd.get(), a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd.get(), options.backlog) != 0) {
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
  if (local.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&local);
    ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    bound = "[" + std::string(text) + "]:" + std::to_string(ntohs(v6->sin6_port));
  } else {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&local);
    ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    bound = std::string(text) + ":" + std::to_string(ntohs(v4->sin_port));
  }
  return listener;
}

std::pair<FileDescriptor, FileDescriptor> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
    throw Error(Errc::io, std::string("HTTP server: cannot make a pipe: ") + std::strerror(errno));
  return {FileDescriptor(fds[0]), FileDescriptor(fds[1])};
}

/// Header field names compare without case: `lower` is lowercase.
bool equal_ignoring_case(std::string_view name, std::string_view lower) {
  return std::ranges::equal(name, lower,
                            [](char a, char b) { return (a >= 'A' && a <= 'Z' ? a | 0x20 : a) == b; });
}

}  // namespace

std::pair<std::string, std::string> split_listen_address(std::string_view option, std::string_view address) {
  const auto colon = address.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == address.size())
    throw OptionError(std::string(option) + " " + quote_for_message(address, 80, '\'') +
                      ": give HOST:PORT or :PORT");
  std::string_view host = address.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return {std::string(host), std::string(address.substr(colon + 1))};
}

HttpServer::HttpServer(std::string_view address, HttpServerOptions options, Handler handler)
    : options_(std::move(options)), handler_(std::move(handler)) {
  const auto [host, port] = split_listen_address(options_.option, address);
  listener_ = listen_on(options_, host, port, address, bound_);
  std::tie(stop_read_, stop_write_) = make_pipe();
  std::tie(drain_read_, drain_write_) = make_pipe();
  const unsigned count = options_.connections == 0 ? 1 : options_.connections;
  threads_.reserve(count);
  running_ = count;
  try {
    for (unsigned i = 0; i < count; ++i) threads_.emplace_back([this] { serve(); });
  } catch (...) {
    running_ -= count - static_cast<unsigned>(threads_.size());
    const char byte = 1;
    (void)!::write(stop_write_.get(), &byte, 1);
    for (std::thread& t : threads_) t.join();
    throw;
  }
}

HttpServer::~HttpServer() {
  const char byte = 1;
  (void)!::write(stop_write_.get(), &byte, 1);
  for (std::thread& t : threads_) t.join();
}

void HttpServer::stop_accepting() {
  const char byte = 1;
  (void)!::write(drain_write_.get(), &byte, 1);
  // A listening socket shut down stops listening (Linux): connects are refused from now on, and those in
  // the backlog are reset rather than left waiting for an accept that will not come.
  ::shutdown(listener_.get(), SHUT_RDWR);
}

void HttpServer::serve() {
  while (true) {
    pollfd fds[3] = {
        {listener_.get(), POLLIN, 0}, {stop_read_.get(), POLLIN, 0}, {drain_read_.get(), POLLIN, 0}};
    if (::poll(fds, 3, -1) < 0 && errno != EINTR) {
      PL_LOG_ERROR("HTTP server {}: poll: {}; no more requests", bound_, std::strerror(errno));
      break;
    }
    if (fds[1].revents != 0 || fds[2].revents != 0) break;
    if (fds[0].revents == 0) continue;
    // Several threads wait on the listener: the ones that lose the race find nothing (EAGAIN) and wait again.
    FileDescriptor client(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (client.get() < 0) continue;
    ++busy_;
    answer(client.get());
    --busy_;
  }
  --running_;
}

bool HttpServer::wait_for(int client, short events, Clock::time_point deadline, bool end_on_drain) const {
  while (true) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd fds[3] = {{client, events, 0}, {stop_read_.get(), POLLIN, 0}, {drain_read_.get(), POLLIN, 0}};
    const int ready = ::poll(fds, end_on_drain ? 3 : 2, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    return ready > 0 && fds[1].revents == 0 && fds[2].revents == 0 &&
           (fds[0].revents & (POLLERR | POLLNVAL)) == 0;
  }
}

bool HttpServer::send_all(int client, std::string_view data, Clock::time_point deadline) const {
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

std::string HttpServer::allowed_methods() const {
  std::string allowed;
  for (const std::string& method : options_.limits.methods) allowed += (allowed.empty() ? "" : ", ") + method;
  return allowed;
}

HttpResponse HttpServer::refusal(int status, const std::string& message) const {
  HttpResponse response = options_.refusal
                              ? options_.refusal(status, message)
                              : HttpResponse{status, "text/plain; charset=utf-8", message + "\n"};
  if (response.status == 503 && std::ranges::none_of(response.headers, [](const auto& field) {
        return equal_ignoring_case(field.first, "retry-after");
      }))
    response.headers.emplace_back("Retry-After", "1");
  return response;
}

bool HttpServer::reserve_body(std::uint64_t bytes, BodyReservation& reservation) {
  if (options_.body_memory == 0 || bytes == 0) return true;
  std::uint64_t used = body_memory_used_.load();
  do {
    if (bytes > options_.body_memory - used) return false;
  } while (!body_memory_used_.compare_exchange_weak(used, used + bytes));
  reservation = BodyReservation(&body_memory_used_, bytes);
  return true;
}

void HttpServer::respond(int client, const HttpResponse& response, bool head,
                         Clock::time_point deadline) const {
  std::string text = "HTTP/1.1 " + std::to_string(response.status) + " " +
                     std::string(http_reason(response.status)) +
                     "\r\nContent-Type: " + response.content_type +
                     "\r\nContent-Length: " + std::to_string(response.body.size()) + "\r\n";
  for (const auto& [name, value] : response.headers) text += name + ": " + value + "\r\n";
  text += "Connection: close\r\n\r\n";
  if (!head) text += response.body;
  if (!send_all(client, text, deadline)) return;
  // Closing with unread bytes from the client (a request refused before its body was read) would send a
  // reset that may discard the answer before the client reads it: say we are done, and read until the client
  // is too, or the deadline.
  ::shutdown(client, SHUT_WR);
  char sink[4096];
  while (true) {
    const ssize_t got = ::recv(client, sink, sizeof sink, 0);
    if (got > 0 || (got < 0 && errno == EINTR)) continue;
    if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) || !wait_for(client, POLLIN, deadline)) return;
  }
}

std::optional<HttpRequest> HttpServer::read_request(int client, BodyReservation& reservation,
                                                    std::optional<HttpResponse>& refused) {
  const Clock::time_point deadline = Clock::now() + options_.read_timeout;
  std::string data;
  HttpHeadParse parsed;
  HttpBodyFrame frame;
  // Reads until the head is whole (or refused), then the body its Content-Length announces.
  while (true) {
    if (parsed.state == HttpHeadParse::State::incomplete) {
      parsed = parse_http_head(data, options_.limits);
      if (parsed.state == HttpHeadParse::State::refused) {
        refused = refusal(parsed.status, parsed.message);
        if (parsed.status == 405) refused->headers.emplace_back("Allow", allowed_methods());
        return std::nullopt;
      }
      if (parsed.state == HttpHeadParse::State::complete) {
        const std::uint64_t length = parsed.request.content_length;
        if (options_.body_memory != 0 && length > options_.body_memory) {
          refused = refusal(413, "a body of " + std::to_string(length) + " bytes is over the server's " +
                                     std::to_string(options_.body_memory) + "-byte body memory");
          return std::nullopt;
        }
        if (!reserve_body(length, reservation)) {
          refused = refusal(503, "the bodies of the requests being served take the server's body memory (" +
                                     std::to_string(options_.body_memory) + " bytes): retry later");
          return std::nullopt;
        }
        // The length is within limits.max_body and reserved: room for the whole request at once.
        data.reserve(parsed.head_bytes + length);
        // A client that asked to be told first (curl does for bodies over 1 MiB, then waits a second) is
        // told to send its body.
        const std::string* expect = parsed.request.header("expect");
        if (expect != nullptr && equal_ignoring_case(*expect, "100-continue") && length > 0 &&
            data.size() == parsed.head_bytes && parsed.request.minor_version >= 1 &&
            !send_all(client, "HTTP/1.1 100 Continue\r\n\r\n", deadline))
          return std::nullopt;
      }
    }
    char buffer[16384];
    std::size_t want = sizeof buffer;
    if (parsed.state == HttpHeadParse::State::complete) {
      frame = frame_http_body(data, parsed, options_.limits);
      if (frame.state == HttpBodyFrame::State::refused) {
        refused = refusal(frame.status, frame.message);
        return std::nullopt;
      }
      if (frame.state == HttpBodyFrame::State::complete) break;
      // No more than the body: bytes after it would belong to a request this connection never serves.
      want = static_cast<std::size_t>(std::min<std::uint64_t>(want, frame.missing));
    }
    const ssize_t got = ::recv(client, buffer, want, 0);
    if (got > 0) {
      data.append(buffer, static_cast<std::size_t>(got));
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      // A connection that has sent nothing yet is closed as soon as the server stops accepting: it would
      // otherwise hold the stop back for the whole read timeout (a load balancer's spare connection).
      if (!wait_for(client, POLLIN, deadline, data.empty())) {
        // Too slow (or stopping): a request that began is told why; a connection that sent nothing is closed.
        if (!data.empty() && Clock::now() >= deadline)
          refused = refusal(408, "the request did not arrive within the read timeout");
        return std::nullopt;
      }
    } else {
      return std::nullopt;  // closed before a whole request: nothing to answer
    }
  }
  HttpRequest request = std::move(parsed.request);
  // The body alone, moved out of `data` rather than copied: it may be hundreds of MiB.
  const std::size_t body_begin = static_cast<std::size_t>(frame.body.data() - data.data());
  const std::size_t body_size = frame.body.size();
  data.erase(0, body_begin);
  data.resize(body_size);
  request.body = std::move(data);
  return request;
}

void HttpServer::answer(int client) {
  std::optional<HttpResponse> response;
  bool head = false;
  {
    // Declared before the request whose body it accounts for, so released after it: once the handler has
    // returned, or the request was refused, failed or timed out, or anything threw.
    BodyReservation reservation;
    std::optional<HttpRequest> request = read_request(client, reservation, response);
    if (request) {
      head = request->method == "HEAD";
      try {
        response = handler_(*request);
      } catch (const std::exception& e) {
        PL_LOG_WARN("HTTP server {}: {}", bound_, e.what());
        response = refusal(500, "internal error");
      }
    }
  }
  // The body and its reservation are gone: a client slow to take its answer holds no body memory.
  if (response) respond(client, *response, head, Clock::now() + options_.write_timeout);
}

}  // namespace proofline
