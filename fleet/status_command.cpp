// `status`: the workers, the jobs by state, the proofs/s of the last minute and the queued jobs by key;
// `status --self-check`.
#include <cstdio>
#include <string>

#include <proofline/fleet/commands.hpp>
#include <proofline/fleet/detail/argv.hpp>
#include <proofline/fleet/detail/conninfo.hpp>
#include <proofline/fleet/detail/schema.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::fleet {

namespace {

struct StatusCli {
  std::optional<std::filesystem::path> db_url_file;
  bool self_check = false;
  std::string worker;
  double max_age_s = 60;
};

void print_workers(detail::Connection& db, double silent_after_s) {
  // The jobs a worker holds are counted in the queue, not taken from its heartbeat row, which is a third of
  // a lease old at most: a claim or a result shows at once.
  const detail::Result r =
      db.exec("read the workers",
              "SELECT w.name, w.host, w.backend, extract(epoch FROM now() - w.heartbeat_at),"
              " (SELECT count(*) FROM proofline.jobs j WHERE j.state = 'running' AND j.worker = w.name),"
              " w.capacity, w.proofs, w.draining FROM proofline.workers w ORDER BY w.name");
  std::printf("workers: %d\n", r.rows());
  for (int i = 0; i < r.rows(); ++i) {
    // A worker killed or cut off leaves its row behind (its leases expire and its jobs go to others); the
    // row itself goes an hour after its last heartbeat.
    const bool silent = r.real(i, 3) > silent_after_s;
    std::printf("  %-32s host %s, %s, heartbeat %.1f s ago, holds %lld of %lld, %lld proofs%s%s\n",
                r.text(i, 0).c_str(), r.text(i, 1).c_str(), r.text(i, 2).c_str(), r.real(i, 3),
                static_cast<long long>(r.integer(i, 4)), static_cast<long long>(r.integer(i, 5)),
                static_cast<long long>(r.integer(i, 6)), r.boolean(i, 7) ? ", draining" : "",
                silent ? ", SILENT (stopped without leaving, or cut off from the database)" : "");
  }
}

void print_queue(detail::Connection& db) {
  const detail::Result states = db.exec(
      "count jobs by state",
      "SELECT s.state, count(j.id) FROM unnest(ARRAY['queued', 'running', 'done', 'failed']) WITH ORDINALITY"
      " AS s(state, o) LEFT JOIN proofline.jobs j ON j.state = s.state GROUP BY s.state, s.o ORDER BY s.o");
  std::printf("jobs:");
  for (int i = 0; i < states.rows(); ++i)
    std::printf("%s %s %lld", i ? "," : "", states.text(i, 0).c_str(),
                static_cast<long long>(states.integer(i, 1)));
  const detail::Result rate = db.exec(
      "measure throughput",
      "SELECT count(*) FILTER (WHERE state = 'done' AND finished_at > now() - interval '60 seconds') / 60.0,"
      " coalesce(extract(epoch FROM now() - min(submitted_at) FILTER (WHERE state = 'queued')), 0)"
      " FROM proofline.jobs WHERE state IN ('queued', 'done')");
  // Leases that ran out are requeued by the next worker that looks: none may be running.
  const detail::Result stale =
      db.exec("count expired leases and deadlines",
              "SELECT count(*) FILTER (WHERE state = 'running' AND lease_expires < now()),"
              " count(*) FILTER (WHERE state = 'queued' AND deadline < now()) FROM proofline.jobs");
  if (const long long expired = stale.integer(0, 0))
    std::printf(" (%lld running past their lease: their workers are gone, the next worker requeues them)",
                expired);
  if (const long long late = stale.integer(0, 1))
    std::printf(" (%lld queued past their deadline: the next worker fails them)", late);
  std::printf("\nthroughput: %.2f proofs/s over the last minute; oldest queued job waiting %.1f s\n",
              rate.real(0, 0), rate.real(0, 1));
}

/// The keys with jobs queued, most jobs first (ten at most): with keys taking turns, a key's backlog is
/// its own, and this says whose it is.
void print_queued_keys(detail::Connection& db) {
  const detail::Result r =
      db.exec("count queued jobs by key",
              "SELECT key_path, count(*), extract(epoch FROM now() - min(submitted_at)), count(*) OVER ()"
              " FROM proofline.jobs WHERE state = 'queued' GROUP BY key_path ORDER BY 2 DESC, 1 LIMIT 10");
  if (r.rows() == 0) return;
  const long long keys = r.integer(0, 3);
  std::printf("queued by key (%lld key%s):\n", keys, keys == 1 ? "" : "s");
  for (int i = 0; i < r.rows(); ++i)
    std::printf("  %s: %lld, the oldest waiting %.1f s\n", quote_for_message(r.text(i, 0), 200).c_str(),
                static_cast<long long>(r.integer(i, 1)), r.real(i, 2));
}

/// For readiness probes: 0 when `worker`'s heartbeat is younger than max_age_s.
int self_check(detail::Connection& db, const StatusCli& o) {
  const detail::Param name[] = {detail::Param::of(o.worker)};
  const detail::Result r = db.exec("read the heartbeat of " + o.worker,
                                   "SELECT extract(epoch FROM now() - heartbeat_at), draining"
                                   " FROM proofline.workers WHERE name = $1",
                                   name);
  if (r.rows() == 0) {
    std::printf("worker %s: no heartbeat recorded\n", o.worker.c_str());
    return 1;
  }
  const double age = r.real(0, 0);
  const bool fresh = age <= o.max_age_s && !r.boolean(0, 1);
  std::printf("worker %s: heartbeat %.1f s ago%s: %s\n", o.worker.c_str(), age,
              r.boolean(0, 1) ? ", draining" : "", fresh ? "ready" : "not ready");
  return fresh ? 0 : 1;
}

int run_status(const StatusCli& o) {
  detail::Connection db(detail::resolve_conninfo(o.db_url_file));
  const int version = detail::schema_version(db);
  if (version == 0) {
    std::printf("%s: no proofline schema yet (run migrate or start a worker)\n", db.describe().c_str());
    return o.self_check ? 1 : 0;
  }
  if (o.self_check) return self_check(db, o);
  std::printf("%s, schema version %d\n", db.describe().c_str(), version);
  print_workers(db, o.max_age_s);
  print_queue(db);
  print_queued_keys(db);
  return 0;
}

}  // namespace

int status_main(std::string_view program, std::span<const std::string_view> args) {
  const std::string name = std::string(program) + " status";
  const detail::Argv argv(name, args);
  return run_with_options(
      name,
      [&]() -> std::optional<StatusCli> {
        StatusCli o;
        OptionParser cli(
            name, "usage: " + name + " [options]",
            "Prints the workers (heartbeat age, jobs held), the jobs by state, the proofs/s of the last "
            "minute and the queued jobs by key.");
        cli.path("--db-url-file", "FILE", "read the database URL from FILE's first non-blank line",
                 o.db_url_file);
        cli.flag("--self-check", "only check --worker's heartbeat: exit 0 when fresh (a readiness probe)",
                 o.self_check);
        cli.text("--worker", "NAME", "the worker --self-check looks at", o.worker);
        cli.real("--max-age", "SECONDS",
                 "the oldest heartbeat --self-check accepts, and the age past which the listing calls a "
                 "worker silent "
                 "(default 60)",
                 o.max_age_s, Bounds<double>{0.1, 86400});
        if (!cli.parse(argv.argc(), argv.argv())) return std::nullopt;
        if (o.self_check && o.worker.empty()) throw OptionError("--self-check needs --worker NAME");
        return o;
      },
      [](StatusCli o) { return run_status(o); });
}

}  // namespace proofline::fleet
