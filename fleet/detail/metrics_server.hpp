// The worker's HTTP endpoint for its metrics (GET /metrics, Prometheus's text format), its readiness
// (GET /healthz) and its liveness (GET /livez). A scraper asks every few seconds, so one thread serves one
// connection at a time; every read and write is bounded in time and size, so a client that stalls or sends
// garbage delays a scrape by at most that bound and cannot hold the worker (the handler runs on this thread,
// never on the worker's loop).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include <proofline/util/file_descriptor.hpp>

namespace proofline::fleet::detail {

class MetricsServer {
 public:
  struct Response {
    int status = 200;
    std::string content_type = "text/plain; charset=utf-8";
    std::string body;
  };
  /// Answers a GET (or HEAD) of `path` (the query string removed). Called on the server's thread.
  using Handler = std::function<Response(std::string_view path)>;

  /// Listens on `address`: "HOST:PORT", ":PORT" (every interface) or "[IPv6]:PORT"; PORT 0 takes a free
  /// port (address() says which). Throws OptionError naming the address when it cannot listen there.
  MetricsServer(std::string_view address, Handler handler);
  /// Stops the thread (a request being served is cut short).
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  /// What it listens on, "HOST:PORT" with the port it got.
  const std::string& address() const noexcept { return bound_; }

 private:
  using Clock = std::chrono::steady_clock;
  void serve();
  void answer(int client);
  /// poll() on the client for `events` and on the stop pipe: false at the deadline, on a stop or an error.
  bool wait_for(int client, short events, Clock::time_point deadline) const;
  /// Writes all of `data` before `deadline`; false when the client stops reading or goes away.
  bool send_all(int client, std::string_view data, Clock::time_point deadline) const;

  Handler handler_;
  FileDescriptor listener_, stop_read_, stop_write_;
  std::string bound_;
  std::thread thread_;
};

}  // namespace proofline::fleet::detail
