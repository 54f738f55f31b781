// H2D (CUDA backend): a job bound to a device slot copies a, b, c and z from its pinned slot to the device on
// the GPU's copy stream, so the copy of job i+1 overlaps the compute of job i. The completion comes back
// through the async_node's gateway from a host function; then `unpin` records the copy's span from its
// events, and the pinned slot and its token go home the moment the copy is done.
#include <proofline/nodes/detail/gpu_device.hpp>

#include <proofline/cuda/detail/cuda_check.hpp>
#include <proofline/trace/scoped_span.hpp>
#include <proofline/nodes/detail/stages.hpp>

namespace proofline::graph::detail {

namespace {

std::uint64_t copy_bytes(const JobState& job) {
  return 3 * job.key->slot_sizes[0] + job.key->slot_sizes[3];
}

}  // namespace

void gpu_h2d(Core& core, GpuLane& lane, Work work, DeviceSlot* slot, Gateway& gateway) {
  JobState& job = *work.job;
  GpuDevice& g = device_of(lane);
  job.device_slot = slot;
  g.slots_in_use.fetch_add(1, std::memory_order_relaxed);
  slot->h2d_recorded = slot->ntt_recorded = slot->msm_recorded = false;
  core.enter(job, Stage::h2d);
  trace::ScopedSpan span(core.recorder, core.ids.h2d_submit, job.id, lane.device);
  if (!lane.healthy.load())
    core.fail(job, Stage::h2d, Errc::cuda, "GPU " + std::to_string(lane.device) + " is out of service");
  if (job.skip()) {
    gateway.try_put(work);
    return;
  }
  bool enqueued = false;
  try {
    core.hook(Stage::h2d, job);
    cuda::DeviceGuard guard(lane.device);
    slot->anchor = g.current_anchor();
    const std::uint64_t abc = job.key->slot_sizes[0];
    slot->h2d_begin.record(g.copy);
    enqueued = true;
    PL_CUDA_CHECK(cudaMemcpyAsync(slot->a.data(), job.a.data(), abc, cudaMemcpyHostToDevice, g.copy));
    PL_CUDA_CHECK(cudaMemcpyAsync(slot->b.data(), job.b.data(), abc, cudaMemcpyHostToDevice, g.copy));
    PL_CUDA_CHECK(cudaMemcpyAsync(slot->c.data(), job.c.data(), abc, cudaMemcpyHostToDevice, g.copy));
    PL_CUDA_CHECK(cudaMemcpyAsync(slot->z.data(), job.z.data(), job.key->slot_sizes[3],
                                  cudaMemcpyHostToDevice, g.copy));
    slot->h2d_end.record(g.copy);
    slot->h2d_recorded = true;
    span.set_bytes(copy_bytes(job));
    launch_completion(slot->h2d_done, gateway, work, g.copy);
  } catch (const std::exception& e) {
    const Errc code = dynamic_cast<const Error*>(&e) ? static_cast<const Error&>(e).code() : Errc::internal;
    core.fail(job, Stage::h2d, code, e.what());
    // Error path only: copies already queued may still read the pinned slot, which goes back to the pool
    // next. Wait for them rather than let the pool hand the memory to another job under a running DMA.
    if (enqueued) (void)cudaStreamSynchronize(g.copy);
    gateway.try_put(work);
  }
}

void gpu_unpin(Core& core, GpuLane& lane, JobState& job, std::vector<Token>& tokens) {
  trace::ScopedSpan span(core.recorder, core.ids.unpin, job.id, lane.device);
  DeviceSlot* slot = job.device_slot;
  if (slot != nullptr && slot->h2d_recorded) {
    try {
      cuda::DeviceGuard guard(lane.device);
      record_device_span(core, *slot, core.ids.h2d, lane.copy_track, slot->h2d_begin, slot->h2d_end, job.id,
                         copy_bytes(job));
    } catch (const std::exception&) {
      // A span lost to a failing device; the job's own error, if any, is reported by its stages.
    }
  }
  core.release_buffers(job);
  core.return_token(job, tokens);
  core.sample_counters();
}

}  // namespace proofline::graph::detail
