// proofline serve: a long-running HTTP proving service with its keys resident, where circom users deploy
// rapidsnark's prover server, backed by the pipeline so that requests that arrive together are proven
// together (on the GPU, or the CPU backend):
//
//   proofline serve KEY.zkey --circuit CIRCUIT_cpp/ [--name NAME] [--key KEY2.zkey --circuit ... ] --listen
//   :8080 curl --data-binary @input.json http://127.0.0.1:8080/prove/KEY
//
// SIGTERM or SIGINT: no new connections, the requests in flight are answered, exit 0; a second signal stops
// at once (requests still waiting are answered 503, queued jobs cancelled), exit 128 + the signal.
#include <poll.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <proofline/memory/free_heap.hpp>
#include <proofline/util/file_descriptor.hpp>
#include <proofline/util/http_server.hpp>
#include <proofline/util/log.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/size.hpp>
#include <proofline/util/stop_signals.hpp>

#include "batch_common.hpp"
#include "proofline_commands.hpp"
#include "proofline_options.hpp"
#include "prove_service.hpp"

namespace proofline::apps {

namespace {

using namespace std::chrono_literals;

constexpr const char* about =
    "Serves proofs over HTTP with snarkjs Groth16 keys (bls12381 or bn128) loaded once and kept resident: "
    "POST /prove/NAME with the circuit's input JSON (its witness computed in-process by the key's --circuit, "
    "circom --c or --wasm output) or a .wtns (Content-Type: application/octet-stream) answers "
    "{\"proof\": ..., \"publicSignals\": [...]} in snarkjs's shapes, each proof verified with the key first. "
    "Requests that arrive together are proven together through one pipeline, as a batch's jobs are. "
    "GET /keys lists the keys, GET /healthz says whether it serves, GET /metrics gives Prometheus's text. "
    "The bound address is printed on stdout at startup (\"listening on http://HOST:PORT\"; port 0 takes a "
    "free one).";
constexpr const char* epilog =
    "Keys: KEY.zkey, then one --key KEY.zkey per further key; --circuit and --name after a key are that "
    "key's. "
    "A key is served as --name, else as its file's name without .zkey (with its folders when two files share "
    "it); POST /prove works without a name when one key is served.\n"
    "Answers: 200 the proof; 400 unusable input (not JSON, a signal unknown, missing or with the wrong "
    "number "
    "of values, a bad .wtns) with the message `proofline prove` gives; 422 the witness does not satisfy the "
    "circuit; 404 unknown key or path; 405 wrong method; 408 a request slower than --read-timeout; 411 no "
    "Content-Length; 413 a body over --max-body; 503 the queue is full, the bodies of the requests in "
    "flight fill --body-memory, the server is stopping or a proof took longer than --job-timeout (with "
    "Retry-After); 500 internal errors. Every error is JSON {\"error\": MESSAGE}.\n"
    "Exit codes: 0 stopped by SIGTERM/SIGINT after answering the requests in flight; 128 + the signal when a "
    "second signal stopped it at once; 2 unusable keys, circuits or options (nothing served).";

struct ServeOptions {
  CircomBatch prover;
  std::vector<ServedKeySpec> keys{1};
  std::string listen = "127.0.0.1:8080";
  std::uint64_t max_body = 256 * MiB;
  std::uint64_t body_memory = 0;  ///< 0 until given: default_body_memory
  unsigned connections = 64;
  unsigned read_timeout_s = 60, write_timeout_s = 60;
  std::size_t queue = 64;
};

/// --body-memory's default: four bodies of the default --max-body, or one of --max-body when that is larger.
constexpr std::uint64_t default_body_memory = 1 * GiB;

/// The key that --circuit and --name apply to: the last one named so far.
ServedKeySpec& current(ServeOptions& o) {
  return o.keys.back();
}

std::optional<ServeOptions> parse(int argc, char** argv) {
  ServeOptions o;
  set_prover_defaults(o.prover);
  std::string first_zkey;
  OptionParser cli(
      "proofline serve",
      "usage: proofline serve KEY.zkey [--circuit CIRCUIT] [--name NAME] [--key KEY.zkey [--circuit "
      "CIRCUIT] [--name NAME]]... [--listen HOST:PORT]",
      about);
  cli.positional(
      "KEY.zkey",
      "snarkjs's Groth16 key: bls12381 (circom --prime bls12381) or bn128 (circom's default prime)",
      first_zkey);
  cli.group("keys");
  cli.value("--key", "KEY.zkey", "one more key to serve (the --circuit and --name after it are its own)",
            [&o](std::string_view file) { o.keys.push_back({.zkey = std::filesystem::path(file)}); });
  cli.value(
      "--circuit", "CIRCUIT",
      "circom --c's CIRCUIT_cpp/, or --wasm's CIRCUIT_js/ or its .wasm: computes witnesses from input JSON "
      "(without it the key takes .wtns bodies only)",
      [&o](std::string_view dir) {
        if (current(o).circuit) throw Error(Errc::invalid_argument, "given twice for one key");
        current(o).circuit = std::filesystem::path(dir);
      });
  cli.value("--name", "NAME", "the name the key is served under: POST /prove/NAME",
            [&o](std::string_view name) {
              if (!current(o).name.empty()) throw Error(Errc::invalid_argument, "given twice for one key");
              if (name.empty() || name.find_first_of("?# \t\r\n") != std::string_view::npos)
                throw Error(Errc::invalid_argument, "a name is not empty and has no blanks, '?' or '#'");
              current(o).name = std::string(name);
            });
  cli.group("HTTP");
  cli.text("--listen", "HOST:PORT",
           "where to listen: HOST:PORT, :PORT (every interface) or [IPv6]:PORT; port 0 takes a free one "
           "(default 127.0.0.1:8080)",
           o.listen);
  cli.size("--max-body", "SIZE", "the largest request body (default 256M)", o.max_body, {1024, 4 * GiB});
  cli.size("--body-memory", "SIZE",
           "the memory the bodies of all requests in flight may take together, each held from its head until "
           "its proof is made; a body that does not fit beside the others is answered 503 before it is read "
           "(default 1G, or --max-body when larger; at least --max-body)",
           o.body_memory, {1024, 1 * TiB});
  cli.integer("--connections", "N", "connections served at once; more wait to be accepted (default 64)",
              o.connections, Bounds<unsigned>{1, 4096});
  cli.integer("--read-timeout", "SECONDS",
              "the most a request may take to arrive, head and body (default 60)", o.read_timeout_s,
              Bounds<unsigned>{1, 3600});
  cli.integer("--write-timeout", "SECONDS", "the most a client may take to read its answer (default 60)",
              o.write_timeout_s, Bounds<unsigned>{1, 3600});
  cli.integer("--queue", "N",
              "proof requests waiting for the prover before more are answered 503 (default 64)", o.queue,
              Bounds<std::size_t>{1, 1'000'000});
  bool submission_order = false;
  cli.flag("--submission-order",
           "prove requests in the order they arrived, whatever their key (default: the keys take turns, each "
           "key's share in proportion to its circuit's size, so that one key's backlog does not hold up "
           "another's requests)",
           submission_order);
  add_prover_options(cli, o.prover);
  cli.epilog(epilog);
  if (!cli.parse(argc, argv)) return std::nullopt;
  o.keys.front().zkey = first_zkey;
  if (o.body_memory == 0) {
    o.body_memory = std::max(default_body_memory, o.max_body);
  } else if (o.body_memory < o.max_body) {
    throw OptionError("--body-memory " + format_size(o.body_memory) + " is less than --max-body " +
                      format_size(o.max_body) + ": a body of --max-body could never be read (raise " +
                      "--body-memory or lower --max-body)");
  }
  o.prover.program = "proofline serve";
  o.prover.config.queue_capacity = o.queue;
  o.prover.config.keys_take_turns = !submission_order;
  return o;
}

/// Sleeps until a stop signal arrives (the handler writes to `wake`) or `timeout` passes.
void wait_for_signal(int wake, std::chrono::milliseconds timeout) {
  pollfd fd{wake, POLLIN, 0};
  if (::poll(&fd, 1, static_cast<int>(timeout.count())) > 0) {
    char sink[64];
    while (::read(wake, sink, sizeof sink) > 0) {
    }
  }
}

int serve(const ServeOptions& o) {
  log::set_level(o.prover.log_level);
  // Bodies and witnesses of megabytes, read on many connection threads: mapped each on its own, so that the
  // server shrinks back once a burst of them is answered.
  memory::unmap_large_blocks_when_freed();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
    throw Error(Errc::io, std::string("cannot make a pipe: ") + std::strerror(errno));
  const FileDescriptor wake_read(fds[0]), wake_write(fds[1]);
  route_stop_signals(wake_write.get());
  struct StopWaking {
    int fd;
    ~StopWaking() { stop_waking(fd); }
  } stop_waking_guard{wake_write.get()};

  ProveService service(o.prover, o.keys);
  // A signal while the keys loaded (a generator build is cut short by one): stop before serving anything.
  if (const int signal = stop_signal()) return 128 + signal;
  HttpServerOptions http;
  http.option = "--listen";
  http.limits.max_head = 16 * 1024;
  http.limits.max_body = o.max_body;
  http.body_memory = o.body_memory;
  http.limits.methods = {"GET", "HEAD", "POST"};
  http.limits.methods_with_body = {"POST"};
  http.connections = o.connections;
  // Clients that connect while every thread is busy wait here; the kernel caps it at net.core.somaxconn.
  http.backlog = 4096;
  http.read_timeout = std::chrono::seconds(o.read_timeout_s);
  http.write_timeout = std::chrono::seconds(o.write_timeout_s);
  http.refusal = [&service](int status, const std::string& message) {
    return service.refuse(status, message);
  };
  std::optional<HttpServer> server;
  setup_step([&] {
    server.emplace(o.listen, http,
                   [&service](const HttpRequest& request) { return service.handle(request); });
  });
  std::printf("proofline serve: listening on http://%s (keys: %s)\n", server->address().c_str(),
              service.describe_keys().c_str());
  std::fflush(stdout);

  while (stop_signal_count() == 0) wait_for_signal(wake_read.get(), 1000ms);
  service.stop_taking();
  server->stop_accepting();
  std::fprintf(
      stderr,
      "proofline serve: signal %d: no new connections; answering those accepted (%llu proofs in flight; a "
      "second signal stops at once)\n",
      stop_signal(), static_cast<unsigned long long>(service.in_flight()));
  while (server->running() > 0 && stop_signal_count() < 2) wait_for_signal(wake_read.get(), 50ms);
  if (stop_signal_count() >= 2) {
    std::fprintf(stderr, "proofline serve: a second signal: stopping now\n");
    service.abort();
    server.reset();
    service.shutdown(true);
    return 128 + stop_signal();
  }
  server.reset();
  service.shutdown(false);
  std::fprintf(stderr, "proofline serve: stopped\n");
  return 0;
}

}  // namespace

int run_serve_command(int argc, char** argv) {
  const std::optional<ServeOptions> options = parse(argc, argv);
  if (!options) return 0;
  return serve(*options);
}

}  // namespace proofline::apps
