// H2D (CUDA backend): a job bound to a device slot copies a, b, c and z (z alone when the GPU evaluates a, b,
// c from it) from its pinned slot to the device on
// the GPU's copy stream, so the copy of job i+1 overlaps the compute of job i. The job comes back through
// the async_node's gateway from a host function; then gpu_after_copy records the copy's span from its
// events, and the pinned slot goes home the moment the copy is done (the graph returns its token).
#include <proofline/nodes/gpu_stage.hpp>

namespace proofline::nodes {

namespace {

/// a, b and c each (none when the GPU evaluates them from z).
std::uint64_t abc_bytes(const JobState& job) {
  return job.evaluate_on_gpu ? 0 : job.key->slot_sizes[0];
}

std::uint64_t copy_bytes(const JobState& job) {
  return 3 * abc_bytes(job) + job.key->slot_sizes[3];
}

}  // namespace

void gpu_h2d(Context& ctx, devices::GpuLane& lane, Work work, devices::DeviceSlot* slot, Gateway& gateway) {
  JobState& job = *work.job;
  devices::GpuDevice& g = devices::device_of(lane);
  job.device_slot = slot;
  g.occupancy.enter();
  slot->h2d_recorded = slot->ntt_recorded = slot->msm_recorded = false;
  const GpuStage stage{Stage::h2d, ctx.ids.h2d_submit, slot->h2d_done, g.copy, copy_bytes(job)};
  run_gpu_stage(ctx, lane, work, gateway, stage, [&] {
    slot->anchor = g.current_anchor();
    slot->h2d_begin.record(g.copy);
    devices::enqueue_h2d(*slot, job.a.data(), job.b.data(), job.c.data(), abc_bytes(job), job.z.data(),
                         job.key->slot_sizes[3], g.copy);
    slot->h2d_end.record(g.copy);
    slot->h2d_recorded = true;
  });
}

void gpu_after_copy(Context& ctx, devices::GpuLane& lane, JobState& job) {
  trace::ScopedSpan span(ctx.recorder, ctx.ids.unpin, job.id, lane.device);
  devices::DeviceSlot* slot = job.device_slot;
  if (slot != nullptr && slot->h2d_recorded) {
    try {
      cuda::DeviceGuard guard(lane.device);
      devices::record_device_span(ctx.recorder, *slot, ctx.ids.h2d, lane.copy_track, slot->h2d_begin,
                                  slot->h2d_end, job.id, copy_bytes(job));
    } catch (const std::exception&) {
      // A span lost to a failing device; the job's own error, if any, is reported by its stages.
    }
  }
  ctx.release_buffers(job);
  ctx.sample_counters();
}

}  // namespace proofline::nodes
