// The worker's HTTP endpoint for its metrics (GET /metrics, Prometheus's text format), its readiness
// (GET /healthz) and its liveness (GET /livez). A scraper asks every few seconds, so one thread serves one
// connection at a time; every read and write is bounded in time and size, so a client that stalls or sends
// garbage delays a scrape by at most that bound and cannot hold the worker (the handler runs on this thread,
// never on the worker's loop).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <proofline/util/http_server.hpp>

namespace proofline::fleet::detail {

/// The worker's endpoint on util's HttpServer: one connection at a time, GET and HEAD only, no bodies, two
/// seconds for a client to send its request and read the answer.
class MetricsServer {
 public:
  using Response = HttpResponse;
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
  const std::string& address() const noexcept { return server_->address(); }

 private:
  std::unique_ptr<HttpServer> server_;
};

}  // namespace proofline::fleet::detail
