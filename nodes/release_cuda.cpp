// The end of a job's time on a GPU (CUDA backend, pinned mode): the MSMs' span from their events, the five
// results out of the device slot's pinned buffer, and the device slot back to its GPU's device-token buffer.
// Proof assembly and delivery follow in release.cpp, shared with the CPU backend.
#include <proofline/nodes/gpu_stage.hpp>

#include <proofline/trace/scoped_span.hpp>

namespace proofline::nodes {

devices::DeviceSlot* gpu_done(Context& ctx, devices::GpuLane& lane, JobState& job) {
  trace::ScopedSpan span(ctx.recorder, ctx.ids.gpu_done, job.id, lane.device);
  devices::DeviceSlot* slot = job.device_slot;
  if (slot == nullptr) return nullptr;
  if (slot->msm_recorded) {
    try {
      cuda::DeviceGuard guard(lane.device);
      devices::record_device_span(ctx.recorder, *slot, ctx.ids.gpu_msm, lane.compute_track, slot->msm_begin,
                                  slot->msm_end, job.id, 0);
    } catch (const std::exception&) {
    }
    if (!job.skip()) {
      // Guarded: this body's caller must not see an exception.
      ctx.guarded(job, Stage::msm, [&] { take_msm_results(job, *slot); });
    }
  }
  job.device_slot = nullptr;
  devices::device_of(lane).occupancy.leave();
  return slot;
}

}  // namespace proofline::nodes
