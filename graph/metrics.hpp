// A Pipeline's live figures (PipelineStats) as Prometheus metrics, for a /metrics endpoint: what a fleet
// worker serves (`proofline-fleet worker --metrics`), and what an embedder appends to its own page. Every
// name starts with proofline_; counters end in _total, sizes in _bytes, times in _seconds.
#pragma once

#include <string>

#include <proofline/graph/stats.hpp>
#include <proofline/util/prometheus.hpp>

namespace proofline::graph {

/// Appends the families of `stats` to `page`.
void append_metrics(PrometheusText& page, const PipelineStats& stats);

/// The families of `stats` alone, as a page.
std::string metrics_text(const PipelineStats& stats);

}  // namespace proofline::graph
