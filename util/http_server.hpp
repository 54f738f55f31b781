// A small, bounded HTTP/1.x server: the fleet worker's metrics endpoint and `proofline serve` both answer
// through it. A fixed set of threads, each taking one connection at a time (so at most `connections` clients
// are served at once; others wait in the listen backlog), one request per connection (Connection: close).
// Every read and write is bounded in time (the whole request must arrive within read_timeout, the answer be
// taken within write_timeout) and in size (HttpLimits), so a client that stalls or sends garbage holds one
// thread for at most those bounds. The bodies of all connections together are bounded too (body_memory): a
// body is read only once its Content-Length is reserved from that budget, so `connections` clients that each
// announce max_body bytes do not take connections x max_body of memory. The handler runs on the connection's
// thread and may take as long as it needs (a proof); it is never called for a request the parser refused.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
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
  /// The most memory the bodies of the requests being served may take together, as their Content-Lengths
  /// say (0: no bound beyond limits.max_body per connection). Each body's length is reserved before it is
  /// read and released once the handler has returned (or the request failed): a request whose body does not
  /// fit beside the others' is answered 503 with Retry-After, one larger than the whole budget 413, both
  /// without reading the body.
  std::uint64_t body_memory = 0;
  /// The answer to a request refused before the handler (status 400, 405, 408, 411, 413, 501, 503 when the
  /// body does not fit in body_memory now, or 500 for a handler that threw), from the message: "MESSAGE\n" as
  /// text unless set. A 503 without a Retry-After gets "Retry-After: 1".
  std::function<HttpResponse(int status, const std::string& message)> refusal = {};
};

class HttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest& request)>;

  /// Listens on `address`: "HOST:PORT", ":PORT" (every interface, IPv6 and IPv4) or "[IPv6]:PORT"; PORT 0
  /// takes a free port (address() says which), and starts the threads. Throws OptionError naming
  /// options.option and the address when it cannot listen there.
  HttpServer(std::string_view address, HttpServerOptions options, Handler handler);
  /// Stops at once: waits on clients are cut short (a handler already running is waited for).
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// What it listens on, "HOST:PORT" with the port it got.
  const std::string& address() const noexcept { return bound_; }

  /// Takes no more connections (the listener is closed: connections waiting in its backlog are reset), while
  /// those being served are answered, within the usual bounds; one that has sent no byte yet is closed.
  /// Returns at once; idempotent.
  void stop_accepting();
  /// How many threads are still running: 0 once stop_accepting()'s connections are all answered.
  unsigned running() const noexcept { return running_.load(); }
  /// How many connections are being served now.
  unsigned busy() const noexcept { return busy_.load(); }
  /// The bytes of body_memory reserved now by the requests being served.
  std::uint64_t body_memory_in_use() const noexcept { return body_memory_used_.load(); }

 private:
  using Clock = std::chrono::steady_clock;
  /// A request's share of body_memory, held until it is destroyed.
  class BodyReservation {
   public:
    BodyReservation() = default;
    BodyReservation(std::atomic<std::uint64_t>* used, std::uint64_t bytes) noexcept
        : used_(used), bytes_(bytes) {}
    BodyReservation(const BodyReservation&) = delete;
    BodyReservation& operator=(const BodyReservation&) = delete;
    BodyReservation& operator=(BodyReservation&& other) noexcept {
      std::swap(used_, other.used_);
      std::swap(bytes_, other.bytes_);
      return *this;
    }
    ~BodyReservation() {
      if (used_ != nullptr) used_->fetch_sub(bytes_);
    }

   private:
    std::atomic<std::uint64_t>* used_ = nullptr;
    std::uint64_t bytes_ = 0;
  };
  /// Reserves `bytes` of body_memory; false when they do not fit beside the reservations held now.
  bool reserve_body(std::uint64_t bytes, BodyReservation& reservation);

  void serve();
  void answer(int client);
  /// Reads one request within read_timeout, its body's length reserved in `reservation`. nullopt when there
  /// is none for the handler: `refused` is then the answer to send, if any (none when the client sent
  /// nothing or went away).
  std::optional<HttpRequest> read_request(int client, BodyReservation& reservation,
                                          std::optional<HttpResponse>& refused);
  /// poll() on the client for `events` and on the stop pipe (and the drain pipe when `end_on_drain`): false
  /// at the deadline, on a stop (or drain) or an error.
  bool wait_for(int client, short events, Clock::time_point deadline, bool end_on_drain = false) const;
  /// Writes all of `data` before `deadline`; false when the client stops reading or goes away.
  bool send_all(int client, std::string_view data, Clock::time_point deadline) const;
  void respond(int client, const HttpResponse& response, bool head, Clock::time_point deadline) const;
  HttpResponse refusal(int status, const std::string& message) const;
  /// limits.methods as a 405's Allow field: "GET, HEAD".
  std::string allowed_methods() const;

  HttpServerOptions options_;
  Handler handler_;
  FileDescriptor listener_;
  FileDescriptor stop_read_, stop_write_;    // readable: every wait ends at once
  FileDescriptor drain_read_, drain_write_;  // readable: accept nothing more
  std::string bound_;
  std::atomic<unsigned> running_{0}, busy_{0};
  std::atomic<std::uint64_t> body_memory_used_{0};
  std::vector<std::thread> threads_;
};

/// Splits "HOST:PORT", ":PORT" and "[V6]:PORT"; OptionError naming `option` for anything else.
std::pair<std::string, std::string> split_listen_address(std::string_view option, std::string_view address);

}  // namespace proofline
