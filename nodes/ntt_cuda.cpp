// The H stage on the CUDA backend: the key's curve's NttEngine::enqueue_h on the device slot's compute
// stream, in its buffers, in the key's convention; the job comes back through the gateway from a host
// function.
#include <proofline/nodes/gpu_stage.hpp>

namespace proofline::nodes {

void gpu_ntt(Context& ctx, devices::GpuLane& lane, Work work, Gateway& gateway) {
  JobState& job = *work.job;
  devices::GpuDevice& g = devices::device_of(lane);
  devices::DeviceSlot& slot = *job.device_slot;
  run_gpu_stage(ctx, lane, work, gateway,
                GpuStage{Stage::ntt, ctx.ids.ntt_submit, slot.ntt_done, slot.compute}, [&] {
                  slot.ntt_begin.record(slot.compute);
                  enqueue_job_h(g, job, slot, slot.compute);
                  slot.ntt_end.record(slot.compute);
                  slot.ntt_recorded = true;
                });
}

}  // namespace proofline::nodes
