// A small, bounded HTTP/1.x server: the fleet worker's metrics endpoint and `proofline serve` both answer
// through it. A fixed set of threads, each taking one connection at a time (so at most `connections` clients
// are served at once; others wait in the listen backlog), one request per connection (Connection: close).
// Every read and write is bounded in time (the whole request must arrive within read_timeout, the answer be
// taken within write_timeout) and in size (HttpLimits), so a client that stalls or sends garbage holds one
// thread for at most those bounds. The handler runs on the connection's thread and may take as long as it
// needs (a proof); it is never called for a request the parser refused.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <proofline/util/file_descriptor.hpp>
#include <proofline/util/http_request.hpp>

namespace proofline {

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  /// More header fields ("Retry-After", "120"), after Content-Length.
  std::vector<std::pair<std::string, std::string>> headers = {};
};

struct HttpServerOptions {
  /// The option the address came from, for messages: "--metrics '...': cannot listen: ...".
  std::string option = "--listen";
  HttpLimits limits{};
  unsigned connections = 1;  ///< served at once (threads)
  std::chrono::milliseconds read_timeout{2000};
  std::chrono::milliseconds write_timeout{2000};
  int backlog = 16;
  /// The answer to a request the parser refused (status 400, 405, 411, 413, 501, or 500 for a handler that
  /// threw), from the parser's message: "MESSAGE\n" as text unless set.
  std::function<HttpResponse(int status, const std::string& message)> refusal = {};
};

class HttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest& request)>;

  /// Listens on `address`: "HOST:PORT", ":PORT" (every interface) or "[IPv6]:PORT"; PORT 0 takes a free
  /// port (address() says which), and starts the threads. Throws OptionError naming options.option and the
  /// address when it cannot listen there.
  HttpServer(std::string_view address, HttpServerOptions options, Handler handler);
  /// Stops at once: waits on clients are cut short (a handler already running is waited for).
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// What it listens on, "HOST:PORT" with the port it got.
  const std::string& address() const noexcept { return bound_; }

  /// Takes no more connections (the listener is closed: connections waiting in its backlog are reset), while
  /// those being served are answered, within the usual bounds. Returns at once; idempotent.
  void stop_accepting();
  /// How many threads are still running: 0 once stop_accepting()'s connections are all answered.
  unsigned running() const noexcept { return running_.load(); }
  /// How many connections are being served now.
  unsigned busy() const noexcept { return busy_.load(); }

 private:
  using Clock = std::chrono::steady_clock;
  void serve();
  void answer(int client);
  /// poll() on the client for `events` and on the stop pipe: false at the deadline, on a stop or an error.
  bool wait_for(int client, short events, Clock::time_point deadline) const;
  /// Writes all of `data` before `deadline`; false when the client stops reading or goes away.
  bool send_all(int client, std::string_view data, Clock::time_point deadline) const;
  void respond(int client, const HttpResponse& response, bool head, Clock::time_point deadline) const;
  HttpResponse refusal(int status, const std::string& message) const;

  HttpServerOptions options_;
  Handler handler_;
  FileDescriptor listener_;
  FileDescriptor stop_read_, stop_write_;    // readable: every wait ends at once
  FileDescriptor drain_read_, drain_write_;  // readable: accept nothing more
  std::string bound_;
  std::atomic<unsigned> running_{0}, busy_{0};
  std::vector<std::thread> threads_;
};

/// Splits "HOST:PORT", ":PORT" and "[V6]:PORT"; OptionError naming `option` for anything else.
std::pair<std::string, std::string> split_listen_address(std::string_view option, std::string_view address);

}  // namespace proofline
