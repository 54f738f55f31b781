// What a fleet worker tells its metrics endpoint: the figures its loop publishes (results recorded, jobs
// held, keys, the database link, the time spent waiting on statements) and the endpoint's answers, /metrics
// (the pipeline's metrics and the worker's, Prometheus's text format), /healthz (readiness) and /livez
// (liveness: what only a restart mends).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include <proofline/fleet/detail/metrics_server.hpp>
#include <proofline/graph/stats.hpp>

namespace proofline::fleet::detail {

/// Time the worker's loop spent waiting for the database, by statement kind (the fleet's overhead per job).
struct DatabaseTime {
  double claim_s = 0, record_s = 0, beat_s = 0;
  std::int64_t claims = 0, claimed = 0, records = 0, beats = 0;
};

/// What the loop last published of its state, for the metrics endpoint's thread.
struct WorkerFigures {
  /// When the loop published this (it does on every turn) and how long a turn may take before the loop
  /// counts as stuck; a default-constructed time means not started yet, which is not stuck.
  std::chrono::steady_clock::time_point published_at{};
  std::chrono::seconds stall_limit{120};
  bool connected = false, draining = false;
  std::size_t held = 0, keys = 0;
  std::int64_t proofs = 0, failures = 0;  ///< results recorded in the database
  DatabaseTime db_time;
};

/// The answer to GET `path` at `now`: /healthz is 200 while the worker is connected and not draining (503
/// naming why otherwise); /livez 200 unless the loop has not turned within its stall limit or a GPU is out of
/// service after a CUDA error (503 naming which: neither mends without a restart); /metrics the pipeline's
/// `stats()` and the worker's figures; anything else 404.
MetricsServer::Response answer_worker_http(
    std::string_view path, const WorkerFigures& figures, std::string_view name,
    const std::function<graph::PipelineStats()>& stats,
    std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());

}  // namespace proofline::fleet::detail
