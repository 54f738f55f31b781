#include <proofline/fleet/detail/metrics_server.hpp>

#include <chrono>

namespace proofline::fleet::detail {

namespace {

HttpServerOptions metrics_options() {
  HttpServerOptions options;
  options.option = "--metrics";
  // A scraper asks every few seconds and its request is a few hundred bytes: one thread, a small head, no
  // body, and two seconds for a client, so one that stalls delays a scrape by that at most.
  options.connections = 1;
  options.limits.max_head = 8192;
  options.limits.max_body = 0;
  options.limits.methods = {"GET", "HEAD"};
  options.read_timeout = options.write_timeout = std::chrono::milliseconds(2000);
  return options;
}

}  // namespace

MetricsServer::MetricsServer(std::string_view address, Handler handler)
    : server_(std::make_unique<HttpServer>(
          address, metrics_options(),
          [handler = std::move(handler)](const HttpRequest& request) { return handler(request.path); })) {}

MetricsServer::~MetricsServer() = default;

}  // namespace proofline::fleet::detail
