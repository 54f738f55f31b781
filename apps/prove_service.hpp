// `proofline serve`'s prover: snarkjs keys resident in one pipeline, and the HTTP requests that ask for
// proofs with them. Each POST /prove/NAME becomes one pipeline job (its witness from the body: input JSON
// computed in-process by the key's circuit, or a .wtns image), so requests that arrive together are proven
// together, as a batch's jobs are; the handler's thread waits for its job's result and answers snarkjs's
// proof and public signals, each proof verified with the key first, as `proofline prove` does. Failures are
// JSON {"error": MESSAGE} with the CLI's messages: 400 unusable input, 422 a witness that does not satisfy
// the circuit, 404, 503 (queue full, stopping) with Retry-After, 500 for anything else.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <proofline/graph/pipeline.hpp>
#include <proofline/util/http_server.hpp>

#include "circom_batch.hpp"

namespace proofline::apps {

/// {"error": MESSAGE} with `status` (a Retry-After for 503): how every refusal of `proofline serve` reads.
HttpResponse json_error(int status, const std::string& message);

/// A key to serve, as the command line gives it.
struct ServedKeySpec {
  std::filesystem::path zkey;
  std::optional<std::filesystem::path> circuit;  ///< for input JSON bodies; without it only .wtns
  std::string name;                              ///< empty: from the file's name (served_key_names)
};

/// The names the keys are served under: a key's own name when given, else the file's name without .zkey,
/// or with as many of its folders as make it unique ("b/key" beside "a/key"), as the C ABI names keys it
/// loads from paths. UnusableInput when two keys ask for one name.
std::vector<std::string> served_key_names(const std::vector<ServedKeySpec>& keys);

class ProveService {
 public:
  /// Loads every key (checked as `prove` checks it) and its circuit's generator, and registers them in one
  /// pipeline made from `prover`'s options. UnusableInput for a key, circuit or option it cannot use.
  ProveService(const CircomBatch& prover, const std::vector<ServedKeySpec>& keys);
  ~ProveService();

  /// Answers one request (on the HTTP server's thread; many at once).
  HttpResponse handle(const HttpRequest& request);

  /// A request the HTTP server refused before it reached handle() (malformed, too large, too slow):
  /// json_error, counted in /metrics.
  HttpResponse refuse(int status, const std::string& message) { return count(json_error(status, message)); }

  /// GET /healthz answers 503 from now on (a load balancer sends no more); requests that reach handle() are
  /// still proven: they came on connections accepted before the server stopped accepting.
  void stop_taking() noexcept { stopping_ = true; }
  /// Requests still waiting for their proofs are answered 503 at once, and the queued jobs cancelled, as are
  /// those whose witnesses are being computed (a circuit's loop may run as long as its input says).
  void abort();
  /// Waits for the jobs in flight and releases the pipeline (draining, or cancelling what is queued).
  void shutdown(bool cancel);

  /// Proof requests submitted and not yet answered.
  std::uint64_t in_flight() const noexcept { return in_flight_.load(); }
  /// "mul (bn128), sha (bls12381)" for the startup line.
  std::string describe_keys() const;

  struct Key;

 private:
  HttpResponse prove(const Key& key, const HttpRequest& request);
  HttpResponse keys_page() const;
  HttpResponse metrics_page();
  HttpResponse count(HttpResponse response);

  std::vector<std::unique_ptr<Key>> keys_;
  std::optional<graph::Pipeline> pipeline_;
  std::atomic<bool> stopping_{false}, aborted_{false};
  std::atomic<std::uint64_t> in_flight_{0}, proofs_{0}, requests_seen_{0};
  std::mutex counts_mutex_;
  std::map<int, std::uint64_t> responses_;  ///< by status
};

}  // namespace proofline::apps
