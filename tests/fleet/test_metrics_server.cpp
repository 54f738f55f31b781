// The worker's HTTP endpoint: GET and HEAD of a path reach the handler, anything else gets a status of its
// own, a client that stalls delays the next one by at most the server's patience, and the server stops
// at once even while a client holds a connection open. The worker's pages: readiness and metrics.
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include <proofline/fleet/detail/metrics_server.hpp>
#include <proofline/fleet/detail/worker_metrics.hpp>
#include <proofline/util/file_descriptor.hpp>
#include <proofline/util/options.hpp>

#include "support/tcp_connect.hpp"

namespace proofline::fleet {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

FileDescriptor connect_to(const detail::MetricsServer& server) {
  FileDescriptor fd = test_support::connect_tcp(server.address());
  REQUIRE(fd.get() >= 0);
  return fd;
}

/// Sends `request` and reads the answer until the server closes the connection.
std::string ask(const detail::MetricsServer& server, std::string_view request) {
  FileDescriptor fd = connect_to(server);
  REQUIRE(::send(fd.get(), request.data(), request.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(request.size()));
  std::string answer;
  char buffer[4096];
  while (true) {
    const ssize_t got = ::recv(fd.get(), buffer, sizeof buffer, 0);
    if (got <= 0) break;
    answer.append(buffer, static_cast<std::size_t>(got));
  }
  return answer;
}

detail::MetricsServer::Response echo(std::string_view path) {
  if (path == "/boom") throw std::runtime_error("the handler failed");
  return {path == "/missing" ? 404 : 200, "text/plain; charset=utf-8", "path " + std::string(path) + "\n"};
}

}  // namespace

TEST_CASE("fleet/metrics server/answers GET and HEAD and refuses the rest") {
  detail::MetricsServer server("127.0.0.1:0", echo);
  CHECK(server.address().starts_with("127.0.0.1:"));
  CHECK(ask(server, "GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\n\r\n") ==
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 14\r\n"
        "Connection: close\r\n\r\npath /metrics\n");
  CHECK(ask(server, "HEAD /healthz HTTP/1.0\r\n\r\n") ==
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 14\r\n"
        "Connection: close\r\n\r\n");
  CHECK(ask(server, "GET /missing HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404 Not Found\r\n"));
  CHECK(ask(server, "POST /metrics HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405 Method Not Allowed\r\n"));
  CHECK(ask(server, "hello\r\n\r\n").starts_with("HTTP/1.1 400 Bad Request\r\n"));
  CHECK(ask(server, "GET /boom HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 500 Internal Server Error\r\n"));
  // A head larger than the server reads is answered as far as it goes, not read for ever.
  const std::string huge = "GET /" + std::string(20000, 'a') + " HTTP/1.1\r\n\r\n";
  CHECK(ask(server, huge).starts_with("HTTP/1.1 400"));
}

TEST_CASE("fleet/metrics server/a stalled client delays the next by at most its patience") {
  detail::MetricsServer server("127.0.0.1:0", echo);
  FileDescriptor stalled = connect_to(server);  // sends nothing
  const auto start = Clock::now();
  CHECK(ask(server, "GET /metrics HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 200 OK"));
  CHECK(Clock::now() - start < 4s);
}

TEST_CASE("fleet/metrics server/stops at once while a client holds a connection") {
  const auto start = Clock::now();
  {
    detail::MetricsServer server("127.0.0.1:0", echo);
    FileDescriptor stalled = connect_to(server);
    ::usleep(100'000);  // the server is waiting on it
  }
  CHECK(Clock::now() - start < 1s);
}

TEST_CASE("fleet/metrics server/an address it cannot listen on is an option error") {
  CHECK_THROWS_WITH_AS(detail::MetricsServer("9464", echo), "--metrics '9464': give HOST:PORT or :PORT",
                       OptionError);
  CHECK_THROWS_WITH_AS(detail::MetricsServer("127.0.0.1:65536", echo),
                       "--metrics '127.0.0.1:65536': the port must be a number from 0 to 65535", OptionError);
  CHECK_THROWS_AS(detail::MetricsServer("no-such-host.invalid:0", echo), OptionError);
  detail::MetricsServer taken("127.0.0.1:0", echo);
  try {
    detail::MetricsServer again(taken.address(), echo);
    FAIL("two servers listen on one port");
  } catch (const OptionError& e) {
    CHECK(std::string(e.what()).ends_with("cannot listen: Address already in use"));
  }
  detail::MetricsServer any(":0", echo);  // every interface
  CHECK_FALSE(any.address().empty());
}

TEST_CASE("fleet/metrics server/the worker's readiness and metrics pages") {
  detail::WorkerFigures figures{.connected = true, .held = 3, .keys = 2, .proofs = 5, .failures = 1};
  const auto stats = [] {
    graph::PipelineStats s;
    s.proofs = 5;
    return s;
  };
  const auto health = [&](const detail::WorkerFigures& f) {
    const detail::MetricsServer::Response r = detail::answer_worker_http("/healthz", f, "w1", stats);
    return std::to_string(r.status) + " " + r.body;
  };
  CHECK(health(figures) == "200 serving\n");
  CHECK(health({.connected = false}) == "503 no database connection\n");
  CHECK(health({.connected = true, .draining = true}) == "503 draining\n");
  CHECK(detail::answer_worker_http("/", figures, "w1", stats).status == 404);
  CHECK(detail::answer_worker_http("/livez", {.connected = false}, "w1", stats).status ==
        200);  // not started
  const detail::MetricsServer::Response metrics =
      detail::answer_worker_http("/metrics", figures, "w\"1", stats);
  CHECK(metrics.status == 200);
  CHECK(metrics.content_type == "text/plain; version=0.0.4; charset=utf-8");
  for (const char* line :
       {"proofline_proofs_total 5\n", "proofline_fleet_worker_info{name=\"w\\\"1\"} 1\n",
        "proofline_fleet_jobs_held 3\n", "proofline_fleet_keys 2\n",
        "proofline_fleet_results_recorded_total{result=\"proof\"} 5\n",
        "proofline_fleet_results_recorded_total{result=\"failure\"} 1\n", "proofline_fleet_connected 1\n"})
    CHECK_MESSAGE(metrics.body.find(line) != std::string::npos, line);
}

TEST_CASE(
    "fleet/metrics server/liveness fails only for what a restart mends: a stuck loop, a GPU out of service") {
  const auto t0 = Clock::time_point{} + 1000s;
  const detail::WorkerFigures turning{.published_at = t0, .stall_limit = 120s, .connected = false};
  graph::PipelineStats stats;
  stats.gpus.resize(2);
  stats.gpus[0].device = 0;
  stats.gpus[1].device = 3;
  const auto live = [&](const detail::WorkerFigures& f, Clock::time_point now) {
    const detail::MetricsServer::Response r = detail::answer_worker_http(
        "/livez", f, "w1", [&] { return stats; }, now);
    return std::to_string(r.status) + " " + r.body;
  };
  // A database outage (not connected) or a drain keeps a worker alive while its loop turns.
  CHECK(live(turning, t0 + 5s) == "200 alive\n");
  CHECK(live({.published_at = t0, .stall_limit = 120s, .draining = true}, t0 + 120s) == "200 alive\n");
  CHECK(live(turning, t0 + 121s) == "503 stuck: the worker's loop has not turned for 121 s (limit 120 s)\n");
  stats.gpus[1].healthy = false;
  CHECK(live(turning, t0 + 5s) == "503 gpu 3 is out of service after a CUDA error; a restart recovers it\n");
}

}  // namespace proofline::fleet
