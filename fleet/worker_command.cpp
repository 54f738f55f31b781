// `worker`: its options (the pipeline's, like batch_prove's, and the fleet's) and its run.
#include <cstdio>
#include <optional>

#include <proofline/cuda/gpu_ntt.hpp>
#include <proofline/fleet/commands.hpp>
#include <proofline/fleet/detail/argv.hpp>
#include <proofline/fleet/detail/conninfo.hpp>
#include <proofline/fleet/detail/worker.hpp>
#include <proofline/graph/config_options.hpp>
#include <proofline/memory/free_heap.hpp>
#include <proofline/util/log.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::fleet {

namespace {

constexpr const char* about =
    "Proves jobs from the PostgreSQL queue until SIGTERM or SIGINT, then stops claiming, finishes and "
    "delivers what it holds (up to --drain-timeout), and exits 0. A second SIGTERM or SIGINT stops it at "
    "once: it records the proofs already made, puts the jobs it has not finished back in the queue (their "
    "attempt given back) and exits 128 + the signal's number (143, 130). A signal also ends a wait on the "
    "database (a frozen server, a lock). The database URL comes from --db-url-file, $PROOFLINE_DB_URL or "
    "libpq's PG* variables.";

struct WorkerCli {
  detail::WorkerOptions worker;
  std::optional<std::filesystem::path> db_url_file;
  log::Level log_level = log::Level::info;
};

void add_fleet_options(OptionParser& cli, WorkerCli& o) {
  cli.group("fleet");
  cli.path("--db-url-file", "FILE",
           "read the database URL (libpq URL or conninfo) from FILE's first non-blank line", o.db_url_file);
  cli.text("--name", "NAME", "this worker's name in the fleet, unique (default HOST-PID)", o.worker.name);
  cli.real("--lease", "SECONDS", "a claim's lease, renewed by heartbeats every third of it (default 30)",
           o.worker.lease_s, Bounds<double>{1, 86400});
  cli.integer("--prefetch", "N", "jobs claimed beyond the pipeline's pinned-slot tokens (default 1)",
              o.worker.prefetch, Bounds<int>{0, 4096});
  cli.integer("--max-keys", "N", "keys kept registered, least recently used dropped first (default 8)",
              o.worker.keys.max_keys, Bounds<std::size_t>{1, 4096});
  cli.real(
      "--drain-timeout", "SECONDS",
      "after SIGTERM, how long to finish and deliver held jobs before putting the rest back in the queue "
      "(default 600)",
      o.worker.drain_timeout_s, Bounds<double>{0, 86400 * 7});
  cli.text(
      "--metrics", "HOST:PORT",
      "serve Prometheus metrics at http://HOST:PORT/metrics, readiness at /healthz and liveness at /livez "
      "(:PORT for every interface; default: none)",
      o.worker.metrics_address);
  graph::add_point_check_option(cli, o.worker.keys.point_check);
  graph::add_log_level_option(cli, o.log_level, "info");
}

void add_pipeline_options(OptionParser& cli, graph::Config& c) {
  cli.group("pipeline");
  graph::add_backend_option(cli, c);
  graph::add_host_resource_options(cli, c);
  graph::add_gpu_resource_options(cli, c);
  cli.flag(
      "--no-verify",
      "deliver proofs without verifying them first (verified = false in the results), but for each key's "
      "first, which checks that the key and its constraint system are of one circuit",
      [&c] { c.verify = false; });
  // A worker meets its keys one job at a time, and the GPU's device slots are sized once: by the first key
  // unless told the largest.
  cli.integer(
      "--max-log-rows", "N",
      "the GPU's device slots hold keys of up to 2^N rows (default: the first key's size; a larger key "
      "loaded later fails its jobs, naming this option)",
      c.max_log_n, Bounds<unsigned>{1, static_cast<unsigned>(cuda::NttEngine::max_log_n)});
}

}  // namespace

int worker_main(std::string_view program, std::span<const std::string_view> args) {
  const std::string name = std::string(program) + " worker";
  const detail::Argv argv(name, args);
  return run_with_options(
      name,
      [&]() -> std::optional<WorkerCli> {
        WorkerCli o;
        o.worker.config.verify = true;
        OptionParser cli(name, "usage: " + name + " [options]", about);
        add_fleet_options(cli, o);
        add_pipeline_options(cli, o.worker.config);
        cli.epilog(
            "Exit codes: 0 stopped by a signal with every result delivered; 1 jobs left unfinished or "
            "undelivered at the drain timeout, or the database is unusable (e.g. a newer schema); 2 bad "
            "options; 143 or 130 stopped at once by a second SIGTERM or SIGINT.");
        if (!cli.parse(argv.argc(), argv.argv())) return std::nullopt;
        const std::string& worker_name = o.worker.name;
        if (!worker_name.empty() && (worker_name.find_first_not_of(' ') == std::string::npos ||
                                     worker_name.size() > 200 || printable_line(worker_name) != worker_name))
          throw OptionError("--name " + quote_for_message(worker_name, 80, '\'') +
                            ": a worker's name is up to 200 printable characters, not blank");
        return o;
      },
      [](WorkerCli o) {
        log::set_level(o.log_level);
        // Witnesses of megabytes, fetched and freed job after job: mapped each on its own, so that the
        // worker does not stay at the size of its largest jobs.
        memory::unmap_large_blocks_when_freed();
        o.worker.conninfo = detail::resolve_conninfo(o.db_url_file);
        std::optional<detail::Worker> worker;
        try {
          worker.emplace(std::move(o.worker));
        } catch (const Error& e) {
          // A pipeline the options cannot make (a backend or GPU that is not there, an absurd setting) is
          // the options' fault, as for the other commands.
          if (e.code() == Errc::invalid_argument || e.code() == Errc::cuda) throw OptionError(e.what());
          throw;
        }
        return worker->run();
      });
}

}  // namespace proofline::fleet
