// The MSM stage on the CUDA backend: the five MSMs on the device slot's compute stream against the key's SRS
// in VRAM or streamed from host memory (A, B1 over z and B2 in G2 with the 0/±1 fast path; L over the private
// part of z; H over the H scalars the NTT stage left in a), then one small copy of the results into the
// device slot's pinned buffer. The H stage's span is read here, from its events, now that they completed.
#include <proofline/nodes/gpu_stage.hpp>

namespace proofline::nodes {

void gpu_msm(Context& ctx, devices::GpuLane& lane, Work work, Gateway& gateway) {
  JobState& job = *work.job;
  devices::GpuDevice& g = devices::device_of(lane);
  devices::DeviceSlot& slot = *job.device_slot;
  if (slot.ntt_recorded) {
    try {
      cuda::DeviceGuard guard(lane.device);
      devices::record_device_span(ctx.recorder, slot, ctx.ids.gpu_ntt, lane.compute_track, slot.ntt_begin,
                                  slot.ntt_end, job.id, 3 * job.key->slot_sizes[0]);
    } catch (const std::exception&) {
    }
  }
  run_gpu_stage(ctx, lane, work, gateway,
                GpuStage{Stage::msm, ctx.ids.msm_submit, slot.msm_done, slot.compute}, [&] {
                  slot.msm_begin.record(slot.compute);
                  enqueue_job_msms(g, job, slot);
                  slot.msm_end.record(slot.compute);
                  slot.msm_recorded = true;
                });
}

}  // namespace proofline::nodes
