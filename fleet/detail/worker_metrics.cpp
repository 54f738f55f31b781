#include <proofline/fleet/detail/worker_metrics.hpp>

#include <string>

#include <proofline/graph/metrics.hpp>
#include <proofline/util/prometheus.hpp>

namespace proofline::fleet::detail {

namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";

/// Alive unless something stopped that only a restart brings back: the loop (a statement or a lock that
/// never returns) or a GPU (a sticky CUDA error poisons the process's context; its jobs go to the CPU
/// fallback or fail). A database outage is not one: the worker proves on and reconnects by itself.
MetricsServer::Response liveness(const WorkerFigures& w, const graph::PipelineStats& stats,
                                 std::chrono::steady_clock::time_point now) {
  if (w.published_at != std::chrono::steady_clock::time_point{} && now - w.published_at > w.stall_limit) {
    const auto stalled = std::chrono::duration_cast<std::chrono::seconds>(now - w.published_at);
    return {503, std::string(kText),
            "stuck: the worker's loop has not turned for " + std::to_string(stalled.count()) + " s (limit " +
                std::to_string(w.stall_limit.count()) + " s)\n"};
  }
  for (const graph::GpuStats& gpu : stats.gpus)
    if (!gpu.healthy)
      return {503, std::string(kText),
              "gpu " + std::to_string(gpu.device) +
                  " is out of service after a CUDA error; a restart recovers it\n"};
  return {200, std::string(kText), "alive\n"};
}

}  // namespace

MetricsServer::Response answer_worker_http(std::string_view path, const WorkerFigures& w,
                                           std::string_view name,
                                           const std::function<graph::PipelineStats()>& stats,
                                           std::chrono::steady_clock::time_point now) {
  if (path == "/livez") return liveness(w, stats(), now);
  if (path == "/healthz") {
    // Ready while it serves the queue: connected and not draining. A worker whose database is away goes on
    // proving what it holds and reconnects on its own: not ready, still alive.
    if (w.draining) return {503, std::string(kText), "draining\n"};
    if (!w.connected) return {503, std::string(kText), "no database connection\n"};
    return {200, std::string(kText), "serving\n"};
  }
  if (path != "/metrics") return {404, std::string(kText), "not found: try /metrics, /healthz or /livez\n"};
  using Type = PrometheusText::Type;
  PrometheusText page;
  graph::append_metrics(page, stats());
  page.family("proofline_fleet_worker_info", Type::gauge, "The worker's name (always 1).")
      .sample("proofline_fleet_worker_info", 1, {{"name", name}});
  page.gauge("proofline_fleet_connected", "1 while the worker has a database connection.",
             w.connected ? 1 : 0);
  page.gauge("proofline_fleet_draining", "1 once a signal told the worker to stop.", w.draining ? 1 : 0);
  page.gauge("proofline_fleet_jobs_held", "Jobs claimed by the worker and not recorded yet.",
             static_cast<double>(w.held));
  page.gauge("proofline_fleet_keys", "Keys the worker keeps loaded.", static_cast<double>(w.keys));
  page.family("proofline_fleet_results_recorded_total", Type::counter,
              "Results the worker recorded, by kind.")
      .sample("proofline_fleet_results_recorded_total", static_cast<double>(w.proofs), {{"result", "proof"}})
      .sample("proofline_fleet_results_recorded_total", static_cast<double>(w.failures),
              {{"result", "failure"}});
  page.counter("proofline_fleet_jobs_claimed_total", "Jobs the worker claimed.",
               static_cast<double>(w.db_time.claimed));
  page.family("proofline_fleet_statements_total", Type::counter, "Statements the worker's loop ran, by kind.")
      .sample("proofline_fleet_statements_total", static_cast<double>(w.db_time.claims),
              {{"statement", "claim"}})
      .sample("proofline_fleet_statements_total", static_cast<double>(w.db_time.records),
              {{"statement", "record"}})
      .sample("proofline_fleet_statements_total", static_cast<double>(w.db_time.beats),
              {{"statement", "heartbeat"}});
  page.family("proofline_fleet_statement_seconds_total", Type::counter,
              "Time the worker's loop waited for the database, by statement kind.")
      .sample("proofline_fleet_statement_seconds_total", w.db_time.claim_s, {{"statement", "claim"}})
      .sample("proofline_fleet_statement_seconds_total", w.db_time.record_s, {{"statement", "record"}})
      .sample("proofline_fleet_statement_seconds_total", w.db_time.beat_s, {{"statement", "heartbeat"}});
  return {200, std::string(PrometheusText::content_type), page.text()};
}

}  // namespace proofline::fleet::detail
