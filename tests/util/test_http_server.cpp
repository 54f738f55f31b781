// The small HTTP server (util/http_server.hpp) over real sockets: bodies framed by Content-Length, refusals
// answered before a body is read, a client that sends half a body and stalls answered 408 at the read timeout
// while other clients are served meanwhile, stop_accepting() refusing new connections while the one being
// served is answered, and the body memory shared by all connections: a body that does not fit beside those
// held is answered 503 with Retry-After, one over the whole budget 413, and every reservation is released.
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include <doctest/doctest.h>

#include <proofline/util/file_descriptor.hpp>
#include <proofline/util/http_server.hpp>

#include "support/tcp_connect.hpp"

namespace proofline {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

/// A connected socket, or -1 when the connection is refused.
FileDescriptor connect_to(const HttpServer& server) {
  return test_support::connect_tcp(server.address());
}

std::string read_all(int fd) {
  std::string answer;
  char buffer[4096];
  while (true) {
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) break;
    answer.append(buffer, static_cast<std::size_t>(got));
  }
  return answer;
}

std::string ask(const HttpServer& server, std::string_view request) {
  FileDescriptor fd = connect_to(server);
  REQUIRE(fd.get() >= 0);
  REQUIRE(::send(fd.get(), request.data(), request.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(request.size()));
  return read_all(fd.get());
}

HttpServerOptions post_options() {
  HttpServerOptions options;
  options.connections = 2;
  options.limits.max_body = 100;
  options.limits.methods = {"GET", "POST"};
  options.limits.methods_with_body = {"POST"};
  options.read_timeout = 500ms;
  options.refusal = [](int status, const std::string& message) {
    return HttpResponse{status, "application/json", "{\"error\": \"" + message + "\"}"};
  };
  return options;
}

/// Whether `done` holds within 5 s: a wait that fails its check instead of hanging the suite.
template <class Predicate>
bool within_5s(Predicate done) {
  const auto deadline = Clock::now() + 5s;
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

HttpResponse echo(const HttpRequest& request) {
  if (request.path == "/slow") std::this_thread::sleep_for(300ms);
  if (request.path == "/busy") return {503, "text/plain", "later\n", {{"Retry-After", "1"}}};
  return {200, "text/plain", request.method + " " + request.path + " [" + request.body + "]"};
}

}  // namespace

TEST_CASE("util/http server/a body framed by Content-Length reaches the handler") {
  HttpServer server("127.0.0.1:0", post_options(), echo);
  CHECK(ask(server, "POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello") ==
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 15\r\nConnection: close\r\n\r\n"
        "POST /p [hello]");
  CHECK(ask(server, "GET /busy HTTP/1.1\r\n\r\n") ==
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 6\r\nRetry-After: "
        "1\r\n"
        "Connection: close\r\n\r\nlater\n");
}

TEST_CASE("util/http server/bytes after the body are not the body's, nor served") {
  HttpServer server("127.0.0.1:0", post_options(), echo);
  CHECK(ask(server, "POST /p HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /q HTTP/1.1\r\n\r\n")
            .ends_with("\r\n\r\nPOST /p [abc]"));
  CHECK(ask(server, "POST /p HTTP/1.1\r\nContent-Length: 0\r\n\r\nxyz").ends_with("\r\n\r\nPOST /p []"));
}

TEST_CASE("util/http server/refusals are answered before the body, in the refusal's form") {
  HttpServer server("127.0.0.1:0", post_options(), echo);
  const std::string big =
      ask(server, "POST /p HTTP/1.1\r\nContent-Length: 101\r\n\r\n" + std::string(101, 'x'));
  CHECK(big.starts_with("HTTP/1.1 413 Content Too Large\r\nContent-Type: application/json\r\n"));
  CHECK(big.ends_with("{\"error\": \"a body of 101 bytes is over the 100-byte limit\"}"));
  CHECK(ask(server, "POST /p HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 411 Length Required\r\n"));
  CHECK(ask(server, "PUT /p HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405 Method Not Allowed\r\n"));
  CHECK(ask(server, "\x16\x03\x01 garbage\r\n").starts_with("HTTP/1.1 400 Bad Request\r\n"));
}

TEST_CASE("util/http server/a client that sends half a body and stalls gets 408 and holds no one else") {
  HttpServer server("127.0.0.1:0", post_options(), echo);
  FileDescriptor stalled = connect_to(server);
  const std::string half = "POST /p HTTP/1.1\r\nContent-Length: 10\r\n\r\nhalf";
  REQUIRE(::send(stalled.get(), half.data(), half.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(half.size()));
  const auto start = Clock::now();
  CHECK(ask(server, "GET /other HTTP/1.1\r\n\r\n").ends_with("GET /other []"));
  CHECK(Clock::now() - start < 400ms);  // answered by the other thread, not after the stalled one's timeout
  CHECK(read_all(stalled.get()).starts_with("HTTP/1.1 408 Request Timeout\r\n"));
  CHECK(Clock::now() - start < 3s);
}

TEST_CASE("util/http server/stop_accepting answers the request being served and refuses new connections") {
  // Stopped once the request is being handled: a connection accepted whose request has not arrived yet is
  // one that has sent nothing, and closed unanswered (the next test).
  std::atomic<bool> handling = false;
  HttpServer server("127.0.0.1:0", post_options(), [&](const HttpRequest& request) {
    handling = true;
    return echo(request);
  });
  auto slow = std::async(std::launch::async, [&] { return ask(server, "GET /slow HTTP/1.1\r\n\r\n"); });
  REQUIRE(within_5s([&] { return handling.load(); }));
  server.stop_accepting();
  CHECK(slow.get().ends_with("GET /slow []"));
  while (server.running() > 0) std::this_thread::sleep_for(1ms);
  FileDescriptor late = connect_to(server);
  if (late.get() >= 0) CHECK(read_all(late.get()).empty());  // never answered
}

TEST_CASE("util/http server/stop_accepting closes a connection that has sent nothing at once") {
  HttpServerOptions options = post_options();
  options.read_timeout = 20s;  // what the idle connection would otherwise hold the stop back for
  HttpServer server("127.0.0.1:0", options, echo);
  FileDescriptor idle = connect_to(server);
  REQUIRE(within_5s([&] { return server.busy() == 1; }));
  const auto start = Clock::now();
  server.stop_accepting();
  CHECK(within_5s([&] { return server.running() == 0; }));
  CHECK(read_all(idle.get()).empty());  // closed without an answer: it asked nothing
  CHECK(Clock::now() - start < 5s);
}

TEST_CASE("util/http server/a client that expects 100-continue is told to send its body") {
  HttpServer server("127.0.0.1:0", post_options(), echo);
  FileDescriptor client = connect_to(server);
  const std::string head = "POST /p HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 5\r\n\r\n";
  REQUIRE(::send(client.get(), head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size()));
  const std::string interim = "HTTP/1.1 100 Continue\r\n\r\n";
  std::string got(interim.size(), '\0');
  REQUIRE(::recv(client.get(), got.data(), got.size(), MSG_WAITALL) == static_cast<ssize_t>(got.size()));
  CHECK(got == interim);
  REQUIRE(::send(client.get(), "hello", 5, MSG_NOSIGNAL) == 5);
  CHECK(read_all(client.get()).ends_with("POST /p [hello]"));
  // A body sent with its head anyway (the client stopped waiting) gets no interim answer.
  CHECK(ask(server, head + "hello").starts_with("HTTP/1.1 200 OK\r\n"));
}

TEST_CASE("util/http server/a method not allowed is answered with the methods that are") {
  HttpServer server("127.0.0.1:0", post_options(), echo);
  const std::string answer = ask(server, "DELETE /p HTTP/1.1\r\n\r\n");
  CHECK(answer.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"));
  CHECK(answer.find("\r\nAllow: GET, POST\r\n") != std::string::npos);
  CHECK(ask(server, "GET / HTTP/2.0\r\n\r\n").starts_with("HTTP/1.1 505 HTTP Version Not Supported\r\n"));
}

TEST_CASE("util/http server/:PORT listens on every interface of both families") {
  HttpServer server(":0", post_options(), echo);
  const std::string port = server.address().substr(server.address().rfind(':'));
  const auto answer_through = [](const std::string& address) {
    FileDescriptor fd = test_support::connect_tcp(address);
    REQUIRE(fd.get() >= 0);
    const std::string request = "GET /family HTTP/1.1\r\n\r\n";
    REQUIRE(::send(fd.get(), request.data(), request.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(request.size()));
    return read_all(fd.get());
  };
  CHECK(answer_through("127.0.0.1" + port).ends_with("GET /family []"));
  if (!server.address().starts_with("[")) {
    MESSAGE("no IPv6 on this host: listening on " << server.address());
    return;
  }
  CHECK(server.address() == "[::]" + port);
  CHECK(answer_through("[::1]" + port).ends_with("GET /family []"));
}

TEST_CASE("util/http server/bodies share body_memory: 503 with Retry-After while it is held, 413 over it") {
  HttpServerOptions options = post_options();
  options.connections = 4;
  options.body_memory = 100;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> holding{false};
  HttpServer server("127.0.0.1:0", options, [&](const HttpRequest& request) {
    if (request.path == "/hold") {
      holding = true;
      released.wait();
    }
    if (request.path == "/throw") throw std::runtime_error("handler failed");
    return echo(request);
  });
  const auto post = [](std::string_view path, std::size_t bytes) {
    return "POST " + std::string(path) + " HTTP/1.1\r\nContent-Length: " + std::to_string(bytes) +
           "\r\n\r\n" + std::string(bytes, 'x');
  };
  const auto busy_for = [&](std::size_t bytes) {
    const std::string answer = ask(server, post("/p", bytes));
    CHECK(answer.starts_with("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"));
    CHECK(answer.find("\r\nRetry-After: 1\r\n") != std::string::npos);  // added to the refusal's answer
    CHECK(
        answer.ends_with("{\"error\": \"the bodies of the requests being served take the server's body "
                         "memory (100 bytes): retry later\"}"));
  };

  // 60 bytes held by a handler that has not returned: another 60 do not fit, 40 do.
  auto held = std::async(std::launch::async, [&] { return ask(server, post("/hold", 60)); });
  struct Release {  // on every way out, before `held` and the server wait for the handler
    std::promise<void>& promise;
    bool done = false;
    void operator()() {
      if (!std::exchange(done, true)) promise.set_value();
    }
    ~Release() { (*this)(); }
  } let_go{release};
  REQUIRE(within_5s([&] { return holding.load(); }));
  CHECK(server.body_memory_in_use() == 60);
  busy_for(60);
  CHECK(ask(server, post("/p", 40)).ends_with("POST /p [" + std::string(40, 'x') + "]"));
  CHECK(ask(server, "GET /other HTTP/1.1\r\n\r\n").ends_with("GET /other []"));  // no body: always fits
  let_go();
  CHECK(held.get().ends_with("POST /hold [" + std::string(60, 'x') + "]"));
  CHECK(server.body_memory_in_use() == 0);

  // A body still arriving holds its whole length, from its head on, until it times out.
  FileDescriptor stalled = connect_to(server);
  const std::string half = "POST /p HTTP/1.1\r\nContent-Length: 70\r\n\r\nhalf";
  REQUIRE(::send(stalled.get(), half.data(), half.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(half.size()));
  REQUIRE(within_5s([&] { return server.body_memory_in_use() != 0; }));
  CHECK(server.body_memory_in_use() == 70);
  busy_for(31);
  CHECK(read_all(stalled.get()).starts_with("HTTP/1.1 408 Request Timeout\r\n"));
  CHECK(server.body_memory_in_use() == 0);

  // The whole budget at once fits; a handler that throws releases its body too.
  CHECK(ask(server, post("/p", 100)).ends_with("POST /p [" + std::string(100, 'x') + "]"));
  CHECK(ask(server, post("/throw", 100)).starts_with("HTTP/1.1 500 Internal Server Error\r\n"));
  CHECK(server.body_memory_in_use() == 0);
}

TEST_CASE("util/http server/a body over the whole body_memory is 413, before it is read") {
  HttpServerOptions options = post_options();
  options.body_memory = 50;
  options.refusal = nullptr;
  HttpServer server("127.0.0.1:0", options, echo);
  const std::string big =
      ask(server, "POST /p HTTP/1.1\r\nContent-Length: 60\r\n\r\n" + std::string(60, 'x'));
  CHECK(big.starts_with("HTTP/1.1 413 Content Too Large\r\n"));
  CHECK(big.ends_with("a body of 60 bytes is over the server's 50-byte body memory\n"));
  CHECK(ask(server, "POST /p HTTP/1.1\r\nContent-Length: 50\r\n\r\n" + std::string(50, 'x'))
            .ends_with("POST /p [" + std::string(50, 'x') + "]"));
  CHECK(server.body_memory_in_use() == 0);
}

TEST_CASE("util/http server/a 503 refusal without Retry-After gets one") {
  // The text answer of a server without a refusal callback: the body memory held by a stalled client.
  HttpServerOptions options = post_options();
  options.body_memory = 10;
  options.refusal = nullptr;
  HttpServer server("127.0.0.1:0", options, echo);
  FileDescriptor stalled = connect_to(server);
  const std::string half = "POST /p HTTP/1.1\r\nContent-Length: 10\r\n\r\nhalf";
  REQUIRE(::send(stalled.get(), half.data(), half.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(half.size()));
  REQUIRE(within_5s([&] { return server.body_memory_in_use() != 0; }));
  CHECK(
      ask(server, "POST /p HTTP/1.1\r\nContent-Length: 1\r\n\r\nx") ==
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 94\r\n"
      "Retry-After: 1\r\nConnection: close\r\n\r\nthe bodies of the requests being served take the server's "
      "body memory (10 bytes): retry later\n");
}

TEST_CASE("util/http server/stops at once while clients hold connections") {
  const auto start = Clock::now();
  {
    HttpServer server("127.0.0.1:0", post_options(), echo);
    FileDescriptor a = connect_to(server), b = connect_to(server);
    std::this_thread::sleep_for(50ms);
  }
  CHECK(Clock::now() - start < 400ms);
}

}  // namespace proofline
