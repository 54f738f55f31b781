// pl_pipeline: create, shutdown, drain, cancel, destroy, stats.
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>
#include <type_traits>

#include <proofline/capi/detail/config.hpp>
#include <proofline/capi/detail/gpu_stats.hpp>
#include <proofline/capi/detail/objects.hpp>
#include <proofline/capi/detail/registry.hpp>
#include <proofline/capi/detail/text_out.hpp>
#include <proofline/capi/detail/versioned.hpp>
#include <proofline/graph/metrics.hpp>

namespace proofline::capi {

namespace {

graph::ShutdownMode shutdown_mode(std::int32_t mode) {
  if (mode == PL_SHUTDOWN_DRAIN) return graph::ShutdownMode::drain;
  if (mode == PL_SHUTDOWN_CANCEL) return graph::ShutdownMode::cancel;
  throw_status(PL_ERR_INVALID_ARGUMENT,
               "mode = " + std::to_string(mode) + " is neither PL_SHUTDOWN_DRAIN nor PL_SHUTDOWN_CANCEL");
}

void shut_down(Pipeline& pipeline, graph::ShutdownMode mode) {
  // Refuse every later submit and registration now, and wake submits waiting for room: what follows may
  // wait (for a key release, for jobs), and nothing may join the pipeline meanwhile.
  pipeline.closing.store(true);
  pipeline.prover.stop_accepting();
  // A key release holds the lifecycle lock (shared) while it waits for its key's queued and running jobs:
  // cancel the queued ones before waiting for the lock, or this would wait for them to be proved.
  if (mode == graph::ShutdownMode::cancel) pipeline.prover.cancel_queued();
  std::unique_lock lock(pipeline.lifecycle);
  pipeline.shut_down = true;
  pipeline.prover.shutdown(mode);
}

void fill_stats(const graph::PipelineStats& s, pl_stats* out) {
  std::uint64_t in_flight = s.stages.in_flight();
#define PL_PUT(field, value) \
  if (PL_CAPI_HAS_FIELD(out, field)) out->field = (value);
  PL_PUT(backend, s.backend == graph::Backend::cuda ? PL_BACKEND_CUDA : PL_BACKEND_CPU)
  PL_PUT(mode, s.mode == graph::Mode::baseline ? PL_MODE_BASELINE : PL_MODE_PINNED)
  PL_PUT(submitted, s.submitted)
  PL_PUT(refused, s.refused)
  PL_PUT(proofs, s.proofs)
  PL_PUT(failed, s.failed)
  PL_PUT(cancelled, s.cancelled)
  PL_PUT(timed_out, s.timed_out)
  PL_PUT(verified, s.verified)
  PL_PUT(queue_depth, s.queue_depth)
  PL_PUT(in_flight, in_flight)
  PL_PUT(slots_in_flight, s.slots_in_flight)
  PL_PUT(pinned_bytes, s.pool.bytes_pinned)
  PL_PUT(pinned_bytes_leased, s.pool.bytes_leased)
  PL_PUT(pinned_bytes_idle, s.pool.bytes_idle)
  PL_PUT(pinned_high_water, s.pool.high_water)
  PL_PUT(pin_calls, s.pool.pin_calls)
  PL_PUT(pin_calls_since_warm, s.pool.pin_calls_since_warm)
  PL_PUT(host_budget_total, s.host_budget.total)
  PL_PUT(host_budget_used, s.host_budget.used)
  PL_PUT(gpus, s.gpus.size())
#undef PL_PUT
}

void fill_gpu_stats(const graph::GpuStats& g, pl_gpu_stats* out) {
#define PL_PUT(field, value) \
  if (PL_CAPI_HAS_FIELD(out, field)) out->field = (value);
  PL_PUT(device, g.device)
  PL_PUT(healthy, g.healthy ? 1 : 0)
  PL_PUT(jobs, g.jobs)
  PL_PUT(device_slots, g.device_slots)
  PL_PUT(device_slots_in_use, g.device_slots_in_use)
  PL_PUT(vram_budget, g.vram.total)
  PL_PUT(vram_used, g.vram.used)
  PL_PUT(vram_high_water, g.vram.high_water)
  PL_PUT(keys_resident, g.keys.entries)
  PL_PUT(key_loads, g.keys.loads)
  PL_PUT(key_evictions, g.keys.evictions)
  PL_PUT(msm_tables, g.msm_tables)
  PL_PUT(msm_table_bytes, g.msm_table_bytes)
  PL_PUT(srs_stream_bytes, g.srs_stream_bytes)
#undef PL_PUT
}

}  // namespace

void fill_gpu_stats_of(const graph::PipelineStats& stats, std::size_t index, pl_gpu_stats* out) {
  check_struct_size(out, "stats");
  if (index >= stats.gpus.size())
    throw_status(PL_ERR_INVALID_ARGUMENT, "GPU index " + std::to_string(index) + ": the pipeline has " +
                                              std::to_string(stats.gpus.size()) + " GPUs (" +
                                              (stats.gpus.empty() ? "the CPU backend" : "indices from 0") +
                                              ")");
  fill_gpu_stats(stats.gpus[index], out);
}

}  // namespace proofline::capi

using namespace proofline;
using namespace proofline::capi;

extern "C" {

PL_API pl_status pl_pipeline_create(const pl_config* config, pl_pipeline** out) {
  return guarded("pl_pipeline_create", [&] {
    require(out, "out");
    *out = nullptr;
    auto pipeline = std::make_shared<Pipeline>(to_graph_config(config));
    note_pipeline_created();
    *out = handle_of<pl_pipeline>(Registry<Pipeline>::instance().add(std::move(pipeline)));
    return PL_OK;
  });
}

PL_API pl_status pl_pipeline_shutdown(pl_pipeline* pipeline, int32_t mode) {
  return guarded("pl_pipeline_shutdown", [&] {
    refuse_in_callback("pl_pipeline_shutdown");
    const graph::ShutdownMode how = shutdown_mode(mode);
    shut_down(*lookup<Pipeline>(pipeline, "pipeline"), how);
    return PL_OK;
  });
}

PL_API pl_status pl_pipeline_drain(pl_pipeline* pipeline) {
  return guarded("pl_pipeline_drain", [&] {
    refuse_in_callback("pl_pipeline_drain");
    lookup<Pipeline>(pipeline, "pipeline")->prover.drain();
    return PL_OK;
  });
}

PL_API pl_status pl_pipeline_cancel_queued(pl_pipeline* pipeline, size_t* cancelled) {
  return guarded("pl_pipeline_cancel_queued", [&] {
    const std::size_t n = lookup<Pipeline>(pipeline, "pipeline")->prover.cancel_queued();
    if (cancelled != nullptr) *cancelled = n;
    return PL_OK;
  });
}

PL_API pl_status pl_pipeline_destroy(pl_pipeline* pipeline) {
  return guarded("pl_pipeline_destroy", [&] {
    refuse_in_callback("pl_pipeline_destroy");
    std::shared_ptr<Pipeline> owned = lookup<Pipeline>(pipeline, "pipeline");
    if (owned->destroying.exchange(true))
      throw_status(PL_ERR_INVALID_HANDLE,
                   "pipeline is being destroyed already (by another pl_pipeline_destroy)");
    // In the registry while it shuts down, so that calls made meanwhile are refused as calls to a pipeline
    // shutting down (PL_ERR_SHUT_DOWN), then out of it: no new call finds it. Calls already running (a stats
    // call from another pipeline's callback, say) hold it until they return, which none of them waits for:
    // wait for them, so that it is torn down here, on the caller's thread, and its pinned memory is given
    // back before this returns.
    shut_down(*owned, proofline::graph::ShutdownMode::drain);
    Registry<Pipeline>::instance().take(id_of(pipeline));
    while (owned.use_count() > 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    owned.reset();
    return PL_OK;
  });
}

PL_API pl_status pl_pipeline_stats(pl_pipeline* pipeline, pl_stats* stats) {
  return guarded("pl_pipeline_stats", [&] {
    check_struct_size(stats, "stats");
    fill_stats(lookup<Pipeline>(pipeline, "pipeline")->prover.stats(), stats);
    return PL_OK;
  });
}

PL_API pl_status pl_pipeline_gpu_stats(pl_pipeline* pipeline, size_t index, pl_gpu_stats* stats) {
  return guarded("pl_pipeline_gpu_stats", [&] {
    const graph::PipelineStats all = lookup<Pipeline>(pipeline, "pipeline")->prover.stats();
    fill_gpu_stats_of(all, index, stats);
    return PL_OK;
  });
}

PL_API pl_status pl_pipeline_metrics(pl_pipeline* pipeline, char* out, size_t length, size_t* needed) {
  return guarded("pl_pipeline_metrics", [&] {
    copy_text(graph::metrics_text(lookup<Pipeline>(pipeline, "pipeline")->prover.stats()), out, length,
              needed);
    return PL_OK;
  });
}

}  // extern "C"
