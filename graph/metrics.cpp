#include <proofline/graph/metrics.hpp>

#include <string>
#include <utility>

namespace proofline::graph {

namespace {

using Type = PrometheusText::Type;

void histogram(PrometheusText& page, std::string_view name, std::string_view help,
               const LatencyHistogram& h) {
  page.family(name, Type::histogram, help)
      .histogram_samples(name, LatencyHistogram::bounds, h.at_most, h.count, h.sum_seconds);
}

void jobs(PrometheusText& page, const PipelineStats& s) {
  page.family("proofline_pipeline_info", Type::gauge, "The pipeline's backend and design (always 1).")
      .sample("proofline_pipeline_info", 1,
              {{"backend", std::string_view(to_string(s.backend))},
               {"mode", std::string_view(to_string(s.mode))}});
  page.counter("proofline_jobs_submitted_total", "Jobs accepted by submit or try_submit.",
               static_cast<double>(s.submitted));
  page.counter("proofline_submit_refused_total", "try_submit calls refused because the queue was full.",
               static_cast<double>(s.refused));
  page.counter("proofline_proofs_total", "Jobs that ended with a proof.", static_cast<double>(s.proofs));
  page.counter("proofline_proofs_verified_total", "Proofs the pipeline verified with the pairing check.",
               static_cast<double>(s.verified));
  page.counter("proofline_jobs_failed_total",
               "Jobs that ended with an error, cancelled and timed-out ones included.",
               static_cast<double>(s.failed));
  page.counter("proofline_jobs_cancelled_total", "Jobs cancelled.", static_cast<double>(s.cancelled));
  page.counter("proofline_jobs_timed_out_total", "Jobs past their deadline.",
               static_cast<double>(s.timed_out));
  page.counter("proofline_jobs_retried_total", "Jobs proved again after their GPU went out of service.",
               static_cast<double>(s.retried));
  histogram(page, "proofline_proof_seconds", "Proved jobs, from submission to their result.",
            s.proof_seconds);
  histogram(page, "proofline_queued_seconds",
            "Proved jobs, from submission to admission (waiting for a token).", s.queued_seconds);
}

void stages(PrometheusText& page, const PipelineStats& s) {
  page.family("proofline_jobs_in_stage", Type::gauge,
              "Jobs in each stage now (waiting for a stage counts in it; queue: waiting for a token).");
  const std::pair<std::string_view, std::size_t> counts[] = {{"queue", s.stages.queue},
                                                             {"admission", s.stages.admission},
                                                             {"synthesis", s.stages.synthesis},
                                                             {"h2d", s.stages.h2d},
                                                             {"ntt", s.stages.ntt},
                                                             {"msm", s.stages.msm},
                                                             {"release", s.stages.release},
                                                             {"baseline", s.stages.baseline}};
  for (const auto& [stage, count] : counts)
    page.sample("proofline_jobs_in_stage", static_cast<double>(count), {{"stage", stage}});
  page.gauge("proofline_tokens", "Admission tokens alive (in the buffer or held by jobs).",
             static_cast<double>(s.tokens));
  page.gauge("proofline_token_target", "Tokens the pinned pool can back now for the largest key's slot.",
             static_cast<double>(s.token_target));
  page.gauge("proofline_tokens_parked", "Tokens waiting for host memory after a failed lease.",
             static_cast<double>(s.tokens_parked));
  page.counter("proofline_token_parks_total", "Leases that failed and parked their token.",
               static_cast<double>(s.token_parks));
  page.gauge("proofline_slots_in_flight", "Pinned slots leased by jobs now.",
             static_cast<double>(s.slots_in_flight));
  page.gauge("proofline_synthesis_permits", "Jobs that may synthesize at once now.",
             static_cast<double>(s.synthesis_permits));
  page.gauge("proofline_slot_bytes", "The largest key's pinned slot.", static_cast<double>(s.slot_bytes));
}

void host_memory(PrometheusText& page, const PipelineStats& s) {
  page.family("proofline_pinned_bytes", Type::gauge, "Pinned pool buffers held now, by state.")
      .sample("proofline_pinned_bytes", static_cast<double>(s.pool.bytes_idle), {{"state", "idle"}})
      .sample("proofline_pinned_bytes", static_cast<double>(s.pool.bytes_leased), {{"state", "leased"}});
  page.gauge("proofline_pinned_high_water_bytes", "The most pinned pool bytes ever held.",
             static_cast<double>(s.pool.high_water));
  page.counter("proofline_pool_reuse_hits_total", "Slot buffers served from idle pinned ones.",
               static_cast<double>(s.pool.reuse_hits));
  page.counter("proofline_pool_misses_total", "Slot buffers that had to be pinned.",
               static_cast<double>(s.pool.misses));
  page.counter("proofline_pin_calls_total", "Calls that pinned host memory.",
               static_cast<double>(s.pool.pin_calls));
  page.counter("proofline_pin_calls_since_warm_total",
               "Pin calls since the first key's slots were prewarmed (0 in steady state).",
               static_cast<double>(s.pool.pin_calls_since_warm));
  page.counter("proofline_pin_seconds_total", "Time spent pinning host memory.", s.pool.pin_seconds);
  page.gauge("proofline_host_budget_bytes", "The host memory budget (pinned pool, keys, constraint systems).",
             static_cast<double>(s.host_budget.total));
  page.gauge("proofline_host_budget_used_bytes", "Host budget charged now.",
             static_cast<double>(s.host_budget.used));
  page.gauge("proofline_host_budget_high_water_bytes", "The most host budget ever charged.",
             static_cast<double>(s.host_budget.high_water));
  page.counter("proofline_host_budget_waits_total", "Host budget reservations that had to queue.",
               static_cast<double>(s.host_budget.waits));
  page.gauge("proofline_host_budget_waiting", "Host budget reservations queued now.",
             static_cast<double>(s.host_budget.waiting));
  page.counter("proofline_host_budget_evicted_bytes_total", "Bytes evicted to make room in the host budget.",
               static_cast<double>(s.host_budget.bytes_evicted));
  page.gauge("proofline_host_keys", "Keys resident in host memory.",
             static_cast<double>(s.host_keys.entries));
  page.gauge("proofline_host_key_bytes", "Host memory of the resident keys.",
             static_cast<double>(s.host_keys.bytes_resident));
  page.counter("proofline_host_key_loads_total", "Keys loaded into host memory.",
               static_cast<double>(s.host_keys.loads));
}

/// One family with a sample per GPU (labelled by CUDA device number).
template <class Value>
void per_gpu(PrometheusText& page, const PipelineStats& s, std::string_view name, Type type,
             std::string_view help, Value&& value) {
  page.family(name, type, help);
  for (const GpuStats& gpu : s.gpus) {
    const std::string device = std::to_string(gpu.device);
    page.sample(name, static_cast<double>(value(gpu)), {{"gpu", device}});
  }
}

void gpus(PrometheusText& page, const PipelineStats& s) {
  if (s.gpus.empty()) return;
  page.family("proofline_gpu_info", Type::gauge, "Each GPU of the pipeline and its name (always 1).");
  for (const GpuStats& gpu : s.gpus) {
    const std::string device = std::to_string(gpu.device);
    page.sample("proofline_gpu_info", 1, {{"gpu", device}, {"name", gpu.name}});
  }
  per_gpu(page, s, "proofline_gpu_healthy", Type::gauge,
          "1 while the GPU serves, 0 after a CUDA error took it out.",
          [](const GpuStats& g) { return g.healthy ? 1 : 0; });
  per_gpu(page, s, "proofline_gpu_vram_budget_bytes", Type::gauge, "The GPU's VRAM budget.",
          [](const GpuStats& g) { return g.vram.total; });
  per_gpu(page, s, "proofline_gpu_vram_used_bytes", Type::gauge,
          "VRAM budget charged now (keys, tables, slots).", [](const GpuStats& g) { return g.vram.used; });
  per_gpu(page, s, "proofline_gpu_jobs_total", Type::counter, "Jobs routed to the GPU.",
          [](const GpuStats& g) { return g.jobs; });
  per_gpu(page, s, "proofline_gpu_device_slots", Type::gauge, "Device slots (jobs the GPU holds at once).",
          [](const GpuStats& g) { return g.device_slots; });
  per_gpu(page, s, "proofline_gpu_device_slots_in_use", Type::gauge, "Device slots held by jobs now.",
          [](const GpuStats& g) { return g.device_slots_in_use; });
  per_gpu(page, s, "proofline_gpu_occupied_seconds_total", Type::counter,
          "Time with at least one job bound to the GPU (its rate near 1: the host keeps the GPU fed).",
          [](const GpuStats& g) { return g.occupied_seconds; });
  per_gpu(page, s, "proofline_gpu_keys", Type::gauge, "Proving keys resident in the GPU's memory.",
          [](const GpuStats& g) { return g.keys.entries; });
  per_gpu(page, s, "proofline_gpu_key_loads_total", Type::counter, "Keys uploaded to the GPU.",
          [](const GpuStats& g) { return g.keys.loads; });
  per_gpu(page, s, "proofline_gpu_msm_table_bytes", Type::gauge, "VRAM of the resident keys' MSM tables.",
          [](const GpuStats& g) { return g.msm_table_bytes; });
  per_gpu(page, s, "proofline_gpu_srs_stream_bytes_total", Type::counter,
          "Key bytes streamed from host memory for keys larger than VRAM.",
          [](const GpuStats& g) { return g.srs_stream_bytes; });
}

}  // namespace

void append_metrics(PrometheusText& page, const PipelineStats& stats) {
  jobs(page, stats);
  stages(page, stats);
  host_memory(page, stats);
  gpus(page, stats);
}

std::string metrics_text(const PipelineStats& stats) {
  PrometheusText page;
  append_metrics(page, stats);
  return page.text();
}

}  // namespace proofline::graph
